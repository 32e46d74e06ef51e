import { TrustClient } from '@agent-apis/trust';
import { createClient } from 'redis';

const redis = await createClient({ url: process.env.REDIS_URL })
  .on('error', (error) => console.warn('Redis:', error.message))
  .connect();

// Two workers (in a fleet, two processes or machines): the first to ask scans, the other gets its answer.
const worker = new TrustClient({ decisionCache: { redis } });
const otherWorker = new TrustClient({ decisionCache: { redis } });

const [first, second] = await Promise.all([worker.decide('example.com'), otherWorker.decide('example.com')]);
console.log(first.action, second.result.request_id === first.result.request_id);
redis.destroy();
