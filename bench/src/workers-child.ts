/**
 * One process of `pnpm bench workers`: its own `StoreClient` and `TrustClient` (and Redis connection when the
 * scenario shares through Redis). It makes `calls` store list calls at once and one `decide` per domain, then
 * prints one JSON line: when its first call went out and its last answer came (epoch ms), each call's wait,
 * the 429 answers it saw, the decide requests it sent, the decisions, the errors and the warnings.
 */
import { StoreClient } from '@agent-apis/store';
import { TrustClient } from '@agent-apis/trust';
import { createClient } from 'redis';

export interface ChildConfig {
  storeUrl: string;
  trustUrl: string;
  redisUrl?: string;
  /** Redis key of the store budget for this scenario. */
  budgetKey: string;
  calls: number;
  domains: string[];
  login?: string;
  authToken?: string;
  apiKey?: string;
}

export interface ChildResult {
  startedAt: number;
  finishedAt: number;
  /** When the last store call was answered (epoch ms): the store's share is counted up to it. */
  storeFinishedAt: number;
  /** Wait of every store call that was answered, from call to answer (ms). */
  waits: number[];
  tooManyRequests: number;
  decideRequests: number;
  actions: Record<string, string>;
  errors: string[];
  warnings: string[];
}

const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
const warnings: string[] = [];
const logger = { ...console, warn: (message: string) => warnings.push(message) };
const redis = config.redisUrl
  ? createClient({
      url: config.redisUrl,
      socket: { connectTimeout: 1_000, reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 500) },
    })
  : undefined;
redis?.on('error', () => undefined);
// Connected within 2 s, or not at all (a Redis that is down): the clients then start on the degraded path.
const connecting = redis?.connect().catch(() => undefined);
await Promise.race([connecting, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
console.log('ready');
let tooManyRequests = 0;
let decideRequests = 0;
const store = new StoreClient({
  baseUrl: config.storeUrl,
  ...(config.login ? { login: config.login, authToken: config.authToken } : {}),
  logger,
  hooks: {
    onResponse: (response) => {
      if (response.status === 429) tooManyRequests++;
    },
  },
  rateLimit: redis ? { redis, key: config.budgetKey } : {},
});
const trust = new TrustClient({
  baseUrl: config.trustUrl,
  apiKey: config.apiKey,
  logger,
  hooks: {
    onRequest: () => {
      decideRequests++;
    },
  },
  ...(redis ? { decisionCache: { redis } } : {}),
});
const errors: string[] = [];
const startedAt = Date.now();
let storeFinishedAt = startedAt;
const [waits, actions] = await Promise.all([
  Promise.all(
    Array.from({ length: config.calls }, async () => {
      const sent = performance.now();
      try {
        await store.api.listProducts({ query: { limit: 50, page: 1 } });
        storeFinishedAt = Date.now();
        return [performance.now() - sent];
      } catch (error) {
        errors.push(String(error));
        return [];
      }
    }),
  ),
  Promise.all(
    config.domains.map(async (domain) => {
      try {
        return [domain, (await trust.decide(domain)).action] as const;
      } catch (error) {
        errors.push(String(error));
        return [domain, 'error'] as const;
      }
    }),
  ),
]);
const result: ChildResult = {
  startedAt,
  finishedAt: Date.now(),
  storeFinishedAt,
  waits: waits.flat(),
  tooManyRequests,
  decideRequests,
  actions: Object.fromEntries(actions),
  errors,
  warnings,
};
console.log(JSON.stringify(result));
redis?.destroy();
