import { TrustClient } from '@agent-apis/trust';

// Reads the key from ENTROPY0_API_KEY.
const trust = new TrustClient();

const decision = await trust.decide('github.com');
console.log(decision.action, decision.shouldFetch, decision.reasonCodes.join(' '));
