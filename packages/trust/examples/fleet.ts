import { setTimeout as sleep } from 'node:timers/promises';
import { TrustClient } from '@agent-apis/trust';
import { createClient } from 'redis';

const redis = createClient({
  url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5_000) },
}).on('error', () => undefined);
// Waited for 2 s at most: a Redis that is down costs one warning and a scan per process, never a hang.
await Promise.race([redis.connect().catch(() => undefined), sleep(2_000, undefined, { ref: false })]);

// Two workers (in a fleet, two processes or machines): the first to ask scans, the other gets its answer.
const worker = new TrustClient({ decisionCache: { redis } });
const otherWorker = new TrustClient({ decisionCache: { redis } });

const [first, second] = await Promise.all([worker.decide('example.com'), otherWorker.decide('example.com')]);
console.log(first.action, second.result.request_id === first.result.request_id);
redis.destroy();
