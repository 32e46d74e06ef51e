import { StoreClient } from '@agent-apis/store';

// Half the store's budget, leaving the rest to another integration on the same store.
const store = new StoreClient({ rateLimit: { perSecond: 10, perMinute: 400 } });

// Clients with the same credentials share their budget, even when created separately.
const sameStore = new StoreClient();

const [first, second] = await Promise.all([store.api.countProducts(), sameStore.api.countCustomers()]);
console.log(`${first.count} products, ${second.count} customers`);
