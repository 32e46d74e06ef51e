import { StoreClient } from '@agent-apis/store';

// For every call of this client: 10 s for the whole call, up to 4 retries of idempotent requests.
const store = new StoreClient({ timeout: 10_000, maxRetries: 4 });

// For one call: 2 s, no retry.
const info = await store.api.getStoreInfo({ timeout: 2_000, maxRetries: 0 });
console.log(`${info.name} sells in ${info.currency}`);
