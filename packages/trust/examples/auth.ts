import { TrustClient } from '@agent-apis/trust';

// The same key, sent as `Authorization: Bearer …` instead of `X-API-Key`.
const trust = new TrustClient({ apiKey: process.env.ENTROPY0_API_KEY, authScheme: 'bearer' });

console.log((await trust.decide('github.com')).action);
