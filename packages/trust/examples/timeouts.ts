import { TrustClient } from '@agent-apis/trust';

// Every attempt gives up after 5 s ...
const trust = new TrustClient({ timeout: 5_000 });

// ... and this one call after 2 s.
const result = await trust.api.scoreDomain({ body: { input: 'github.com' }, timeout: 2_000 });
console.log(result.trustScore);
