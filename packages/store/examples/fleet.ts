import { StoreClient } from '@agent-apis/store';
import { createClient } from 'redis';

// Every worker process runs this: one Redis connection, one client, one budget for the whole fleet.
const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' }).on('error', (error) =>
  console.warn('Redis:', error.message),
);
// Not awaited: the client starts at once, on this process's share of the budget until Redis answers (and for good
// when it never does), so a worker never waits on Redis to start.
redis.connect().catch(() => {});

// `workers`: how many processes share the budget, for the per-process share kept while Redis is away.
const store = new StoreClient({ rateLimit: { redis, workers: 4 } });

const { count } = await store.api.countProducts();
console.log(`${count} products`);
redis.destroy();
