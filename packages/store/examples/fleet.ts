import { StoreClient } from '@agent-apis/store';
import { createClient } from 'redis';

// Every worker process runs this: one Redis connection, one client, one budget for the whole fleet. The connection
// is not awaited: a Redis that is down (or never answers) costs one warning and this process's share of the
// budget, never a hang; the client uses Redis as soon as it is ready.
const redis = createClient({
  url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5_000) },
}).on('error', () => undefined);
redis.connect().catch(() => undefined);

// `workers`: how many processes share the budget, for the per-process share kept while Redis is away.
const store = new StoreClient({ rateLimit: { redis, workers: 4 } });

const { count } = await store.api.countProducts();
console.log(`${count} products`);
redis.destroy();
