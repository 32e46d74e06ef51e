/**
 * Decisions shared through a real `redis-server` by real worker processes (test/fleet-worker.ts, running the
 * built package), plus forged and expired entries planted in Redis by hand.
 */
import { fileURLToPath } from 'node:url';
import { AgentApiError } from '@agent-apis/core';
import { type DecideStandIn, startDecideStandIn } from '@agent-apis/test-utils/decide-stand-in';
import { findRedisServer, REDIS_MISSING, type RedisServer, startRedisServer } from '@agent-apis/test-utils/redis';
import { runWorkers } from '@agent-apis/test-utils/workers';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TrustClient, type TrustClientOptions } from './client.js';
import { CANARY_KEY, decideFetch } from './test-support.js';

const WORKER = fileURLToPath(new URL('../test/fleet-worker.ts', import.meta.url));
const DOMAINS = ['alpha.example', 'beta.example', 'bad-gamma.example', 'delta.example', 'bad-epsilon.example'];
const EXPECTED = Object.fromEntries(DOMAINS.map((domain) => [domain, domain.startsWith('bad') ? 'deny' : 'proceed']));

interface WorkerResult {
  actions: Record<string, string>[];
  errors: string[];
  warnings: string[];
}

describe('decisionCache option checks (no Redis needed)', () => {
  it.each([[{}], [{ redis: 'redis://127.0.0.1:6379' }], [{ redis: null }]])(
    'refuses decisionCache %j before any request, naming decisionCache.redis',
    (decisionCache) => {
      const create = () => new TrustClient({ apiKey: CANARY_KEY, decisionCache } as never);
      expect(create).toThrow(AgentApiError);
      expect(create).toThrow('decisionCache.redis');
    },
  );

  it('warns of an unreachable Redis through the logger given at construction, whatever the options become', async () => {
    // A real node-redis client that was never connected: every command fails, as with Redis down.
    const redis = createClient({ url: 'redis://127.0.0.1:1' });
    const seen: [string, string][] = [];
    const sink = (name: string) => ({
      debug: () => {},
      info: () => {},
      warn: (message: string) => seen.push([name, message]),
      error: (message: string) => seen.push([name, message]),
    });
    const options: TrustClientOptions = {
      apiKey: CANARY_KEY,
      decisionCache: { redis },
      logger: sink('given'),
      fetch: decideFetch(),
    };
    const client = new TrustClient(options);
    options.logger = sink('later');
    options.logLevel = 'off';
    const decision = await client.decide('example.com');
    expect(decision.action).toBe('proceed');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(([name]) => name === 'given')).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(CANARY_KEY);
  });
});

const redisServer = findRedisServer();

describe.skipIf(!redisServer)(
  `decisions shared by a fleet through Redis${redisServer ? '' : ` (skipped: ${REDIS_MISSING})`}`,
  () => {
    let redis: RedisServer;
    let service: DecideStandIn | undefined;
    let connection: RedisClientType | undefined;

    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.stop();
    });
    afterEach(async () => {
      connection?.destroy();
      connection = undefined;
      await service?.close();
      service = undefined;
    });

    const connect = async () => {
      connection = createClient({ url: redis.url });
      connection.on('error', () => undefined);
      await connection.connect();
      return connection;
    };

    it('8 processes asking for 5 domains at the same moment: 5 scans in all, every decision right', async () => {
      service = await startDecideStandIn({ latencyMs: 300 });
      const outcomes = await runWorkers<WorkerResult>(
        WORKER,
        Array.from({ length: 8 }, () => ({ baseUrl: service?.url, redisUrl: redis.url, domains: DOMAINS, rounds: 2 })),
      );
      for (const outcome of outcomes) {
        expect(outcome.code, outcome.stderr).toBe(0);
        expect(outcome.result?.errors).toEqual([]);
        expect(outcome.result?.actions).toEqual([EXPECTED, EXPECTED]);
        // Redis stays up; on a loaded machine a command can still miss its deadline, which is one warning at most.
        expect(outcome.result?.warnings.length).toBeLessThanOrEqual(1);
      }
      expect(Object.fromEntries(service.scans)).toEqual(Object.fromEntries(DOMAINS.map((domain) => [domain, 1])));
    }, 90_000);

    it('keys entries by a hash, never the key or the domain, and never uses a forged or expired entry', async () => {
      service = await startDecideStandIn({ latencyMs: 0 });
      const client = await connect();
      await client.flushAll();
      const trust = () =>
        new TrustClient({ apiKey: CANARY_KEY, baseUrl: service?.url, cache: false, decisionCache: { redis: client } });
      expect((await trust().decide('bad-forged.example')).action).toBe('deny');
      const keys = await client.keys('agent-apis:trust-decision:*');
      expect(keys).toHaveLength(1);
      const [key] = keys as [string];
      expect(key).not.toContain(CANARY_KEY);
      expect(key).not.toContain('forged');
      const entry = JSON.parse((await client.get(key)) as string) as { result: string; expiresAt: number };
      // Forged: the same signature over a result turned to `proceed`.
      await client.set(key, JSON.stringify({ ...entry, result: entry.result.replace('"deny"', '"proceed"') }));
      expect((await trust().decide('bad-forged.example')).action).toBe('deny');
      expect(service.scans.get('bad-forged.example')).toBe(2);
      // Expired: an entry whose window is over, however well signed, is not used.
      const stored = JSON.parse((await client.get(key)) as string) as { expiresAt: number };
      await client.set(key, JSON.stringify({ ...stored, expiresAt: Date.now() - 1 }));
      expect((await trust().decide('bad-forged.example')).action).toBe('deny');
      expect(service.scans.get('bad-forged.example')).toBe(3);
      // A genuine entry is used: no scan.
      expect((await trust().decide('bad-forged.example')).action).toBe('deny');
      expect(service.scans.get('bad-forged.example')).toBe(3);
    }, 30_000);

    it('Redis killed mid-run: no crash, one warning per worker, decisions still right', async () => {
      service = await startDecideStandIn({ latencyMs: 100 });
      let ready = 0;
      const run = runWorkers<WorkerResult>(
        WORKER,
        Array.from({ length: 8 }, () => ({
          baseUrl: service?.url,
          redisUrl: redis.url,
          domains: DOMAINS,
          rounds: 4,
          pauseMs: 1_000,
        })),
        (_, line) => {
          if (line === 'ready') ready++;
        },
      );
      // Mid-run: every worker connected, and the first round's scans are in.
      while (ready < 8 || (service?.scans.size ?? 0) < DOMAINS.length) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await redis.kill();
      const outcomes = await run;
      await redis.restart();
      for (const outcome of outcomes) {
        expect(outcome.code, outcome.stderr).toBe(0);
        expect(outcome.result?.errors).toEqual([]);
        expect(outcome.result?.actions).toEqual([EXPECTED, EXPECTED, EXPECTED, EXPECTED]);
        // One warning per worker that met the outage, never more.
        expect(outcome.result?.warnings.length).toBeLessThanOrEqual(1);
      }
      const warnings = outcomes.flatMap((outcome) => outcome.result?.warnings ?? []);
      expect(warnings.length).toBeGreaterThanOrEqual(4);
      for (const warning of warnings) expect(warning).toMatch(/decision cache: Redis is unavailable/);
    }, 90_000);
  },
);
