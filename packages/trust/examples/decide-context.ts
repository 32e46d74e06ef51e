import { TrustClient } from '@agent-apis/trust';

const trust = new TrustClient();

// Omitted interaction and policy fields keep the defaults (fetch / read_only / medium, balanced).
const decision = await trust.decide({
  target: { type: 'domain', value: 'secure-payments-example.com' },
  interaction: { kind: 'submit_credentials', mode: 'transactional' },
  policy: { profile: 'strict' },
});

if (decision.requiresHumanReview) {
  console.log(`ask a person first (${decision.action}, valid until ${decision.validUntil.toISOString()})`);
}
