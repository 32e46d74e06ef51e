import { TrustClient } from '@agent-apis/trust';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' }).on('error', (error) =>
  console.warn('Redis:', error.message),
);
// Not awaited: without Redis each worker decides on its own, and shares decisions once Redis answers.
redis.connect().catch(() => {});

// Two workers (in a fleet, two processes or machines): the first to ask scans, the other gets its answer.
const worker = new TrustClient({ decisionCache: { redis } });
const otherWorker = new TrustClient({ decisionCache: { redis } });

const [first, second] = await Promise.all([worker.decide('example.com'), otherWorker.decide('example.com')]);
console.log(first.action, second.result.request_id === first.result.request_id);
redis.destroy();
