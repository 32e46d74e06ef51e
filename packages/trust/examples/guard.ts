import { TrustClient } from '@agent-apis/trust';

const trust = new TrustClient();

// Resolves when the agent may go ahead; throws TrustDeniedError, TrustSandboxRequiredError, ... otherwise.
const decision = await trust.guard('https://secure-payments-example.com/login', {
  interaction: { kind: 'submit_credentials', mode: 'transactional' },
  onEscalate: async (pending) => {
    // Ask a person here; throw to refuse.
    console.log(`approved by a reviewer despite ${pending.reasonCodes.join(', ')}`);
  },
});
console.log(decision.action);
