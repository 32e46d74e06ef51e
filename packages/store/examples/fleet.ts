import { StoreClient } from '@agent-apis/store';
import { createClient } from 'redis';

// Every worker process runs this: one Redis connection, one client, one budget for the whole fleet.
const redis = await createClient({ url: process.env.REDIS_URL })
  .on('error', (error) => console.warn('Redis:', error.message))
  .connect();

// `workers`: how many processes share the budget, for the per-process share kept while Redis is away.
const store = new StoreClient({ rateLimit: { redis, workers: 4 } });

const { count } = await store.api.countProducts();
console.log(`${count} products`);
redis.destroy();
