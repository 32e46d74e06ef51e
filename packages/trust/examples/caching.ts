import { TrustClient } from '@agent-apis/trust';

const trust = new TrustClient({ cache: { maxEntries: 500 } });

const first = await trust.decide('github.com');
// Same target, interaction and policy inside the validity window: no second request.
const again = await trust.decide('GitHub.com');
console.log(again === first, first.validUntil.toISOString());
