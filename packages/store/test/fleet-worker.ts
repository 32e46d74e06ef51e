/**
 * One worker of a fleet test: its own process, its own Redis connection and `StoreClient` (the built package,
 * as an application would use it). It makes `calls` list calls at once and prints one JSON line: how many were
 * answered, the errors, each call's wait, and the warnings its logger received.
 */
import { StoreClient } from '@agent-apis/store';
import { createClient } from 'redis';

interface WorkerConfig {
  baseUrl: string;
  redisUrl: string;
  calls: number;
  login: string;
  key?: string;
  workers?: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const redis = createClient({
  url: config.redisUrl,
  socket: { connectTimeout: 1_000, reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 500) },
});
const warnings: string[] = [];
redis.on('error', () => undefined);
await redis.connect();
console.log('ready');
const store = new StoreClient({
  baseUrl: config.baseUrl,
  login: config.login,
  authToken: 'fleet-test-token',
  logger: { ...console, warn: (message: string) => warnings.push(message) },
  rateLimit: { redis, key: config.key, workers: config.workers },
});
const started = performance.now();
const outcomes = await Promise.allSettled(
  Array.from({ length: config.calls }, async () => {
    const sent = performance.now();
    await store.api.listProducts({ query: { limit: 50, page: 1 } });
    return performance.now() - sent;
  }),
);
const answered = outcomes.filter((outcome) => outcome.status === 'fulfilled');
console.log(
  JSON.stringify({
    answered: answered.length,
    errors: outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : [])),
    waits: answered.map((outcome) => outcome.value),
    seconds: (performance.now() - started) / 1_000,
    warnings,
  }),
);
redis.destroy();
