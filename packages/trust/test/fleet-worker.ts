/**
 * One worker of a trust fleet test: its own process, Redis connection and `TrustClient` (the built package).
 * It asks for every domain at once, `rounds` times (pausing `pauseMs` between rounds), and prints one JSON line:
 * the action it got per domain per round, the errors, and the warnings its logger received.
 */
import { TrustClient } from '@agent-apis/trust';
import { createClient } from 'redis';

interface WorkerConfig {
  baseUrl: string;
  redisUrl: string;
  domains: string[];
  rounds?: number;
  pauseMs?: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const redis = createClient({
  url: config.redisUrl,
  socket: { connectTimeout: 1_000, reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 500) },
});
redis.on('error', () => undefined);
await redis.connect();
console.log('ready');
const warnings: string[] = [];
// `cache: false`: every round goes to the fleet's cache, as separate processes over time would.
const trust = new TrustClient({
  apiKey: 'sk_ent0_fleet-test-key',
  baseUrl: config.baseUrl,
  cache: false,
  logger: { ...console, warn: (message: string) => warnings.push(message) },
  decisionCache: { redis },
});
const actions: Record<string, string>[] = [];
const errors: string[] = [];
for (let round = 0; round < (config.rounds ?? 1); round++) {
  if (round > 0) await new Promise((resolve) => setTimeout(resolve, config.pauseMs ?? 0));
  const outcomes = await Promise.allSettled(config.domains.map((domain) => trust.decide(domain)));
  const seen: Record<string, string> = {};
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') seen[config.domains[index] as string] = outcome.value.action;
    else errors.push(String(outcome.reason));
  });
  actions.push(seen);
}
console.log(JSON.stringify({ actions, errors, warnings }));
redis.destroy();
