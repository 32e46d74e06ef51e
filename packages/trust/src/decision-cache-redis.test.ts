/**
 * Decisions shared through a real `redis-server` by real worker processes (test/fleet-worker.ts, running the
 * built package), plus forged and expired entries planted in Redis by hand.
 */
import { fileURLToPath } from 'node:url';
import { AgentApiError } from '@agent-apis/core';
import { type DecideStandIn, startDecideStandIn } from '@agent-apis/test-utils/decide-stand-in';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { runWorkers } from '@agent-apis/test-utils/workers';
import { createClient, type RedisClientType } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
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

describeWithRedis('decisions shared by a fleet through Redis', (redis) => {
  let service: DecideStandIn | undefined;

  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  /** A client of this process asking the stand-in, sharing decisions through `client` (the test's connection). */
  const trustThrough = (client: RedisClientType = redis.client) =>
    new TrustClient({ apiKey: CANARY_KEY, baseUrl: service?.url, cache: false, decisionCache: { redis: client } });

  /** Starts the stand-in and decides `domain` once, then deletes its entry: the key the next decision is stored at. */
  const emptiedEntry = async (domain: string): Promise<string> => {
    service = await startDecideStandIn({ latencyMs: 0 });
    await trustThrough().decide(domain);
    const [entryKey] = (await redis.client.keys('agent-apis:trust-decision:*')) as [string];
    await redis.client.del(entryKey);
    return entryKey;
  };

  it('8 processes asking for 5 domains at the same moment: one scan per domain (one more per worker Redis failed), every decision right', async () => {
    service = await startDecideStandIn({ latencyMs: 300 });
    const outcomes = await runWorkers<WorkerResult>(
      WORKER,
      Array.from({ length: 8 }, () => ({
        baseUrl: service?.url,
        redisUrl: redis.server.url,
        domains: DOMAINS,
        rounds: 2,
      })),
    );
    for (const outcome of outcomes) {
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.result?.errors).toEqual([]);
      expect(outcome.result?.actions).toEqual([EXPECTED, EXPECTED]);
      // Redis stays up; on a loaded machine a command can still miss its deadline, which is one warning at most.
      expect(outcome.result?.warnings.length).toBeLessThanOrEqual(1);
    }
    // One scan per domain for the whole fleet. A worker whose Redis command missed its deadline (a busy machine, not
    // a fault: it warned above) asks the API itself rather than wait, so it may add one scan of a domain; a scan
    // no warning explains is the shared lock failing.
    const warned = outcomes.filter((outcome) => (outcome.result?.warnings.length ?? 0) > 0).length;
    for (const domain of DOMAINS) {
      const scans = service.scans.get(domain) ?? 0;
      expect(scans, `scans of ${domain}, ${warned} worker(s) warned`).toBeGreaterThanOrEqual(1);
      expect(scans, `scans of ${domain}, ${warned} worker(s) warned`).toBeLessThanOrEqual(1 + warned);
    }
    expect([...service.scans.keys()].sort()).toEqual([...DOMAINS].sort());
  }, 90_000);

  it('keys entries by an HMAC and seals them: no target, action or score in clear, no forged entry used (finding: trust entries in clear)', async () => {
    service = await startDecideStandIn({ latencyMs: 0 });
    const client = redis.client;
    const trust = () => trustThrough(client);
    expect((await trust().decide('bad-forged.example')).action).toBe('deny');
    const keys = await client.keys('agent-apis:trust-decision:*');
    expect(keys).toHaveLength(1);
    const [key] = keys as [string];
    expect(key).not.toContain(CANARY_KEY);
    expect(key).not.toContain('forged');
    const sealed = (await client.get(key)) as string;
    for (const clear of ['forged', 'deny', 'recommended_action', 'score', 'valid_until', '{']) {
      expect(sealed).not.toContain(clear);
    }
    // Forged: one bit of the sealed value flipped, then the value moved to another key, then plain JSON.
    const flipped = `${sealed.slice(0, 20)}${sealed[20] === 'A' ? 'B' : 'A'}${sealed.slice(21)}`;
    await client.set(key, flipped);
    expect((await trust().decide('bad-forged.example')).action).toBe('deny');
    expect(service.scans.get('bad-forged.example')).toBe(2);
    await trust().decide('alpha.example');
    const otherKey = (await client.keys('agent-apis:trust-decision:*')).find((each) => each !== key) as string;
    await client.set(key, (await client.get(otherKey)) as string);
    expect((await trust().decide('bad-forged.example')).action).toBe('deny');
    expect(service.scans.get('bad-forged.example')).toBe(3);
    await client.set(key, JSON.stringify({ v: 1, expiresAt: Date.now() + 1e12, result: '{}', mac: 'x' }));
    expect((await trust().decide('bad-forged.example')).action).toBe('deny');
    expect(service.scans.get('bad-forged.example')).toBe(4);
    // An oversized value is not read (a miss), and a genuine entry is used: no scan.
    await client.set(key, 'x'.repeat(4 * 1024 * 1024));
    expect((await trust().decide('bad-forged.example')).action).toBe('deny');
    expect(service.scans.get('bad-forged.example')).toBe(5);
    expect((await trust().decide('bad-forged.example')).action).toBe('deny');
    expect(service.scans.get('bad-forged.example')).toBe(5);
  }, 30_000);

  it('takes over a lock with no TTL at once (finding: a trust lock without TTL)', async () => {
    const entryKey = await emptiedEntry('alpha.example');
    const client = redis.client;
    // Anyone who can SCAN sees the entry keys: a lock next to one, with no expiry (and one set for a year).
    for (const lock of [
      () => client.set(`${entryKey}:lock`, 'stuck'),
      () => client.set(`${entryKey}:lock`, 'stuck', { PX: 31_536_000_000 }),
    ]) {
      await lock();
      const guarded = trustThrough().guard('https://alpha.example/', { timeout: 2_000 });
      await expect(guarded).resolves.toMatchObject({ action: 'proceed' });
      await client.del(entryKey);
    }
    expect(service?.scans.get('alpha.example')).toBe(3);
  }, 20_000);

  it('waits for a live holder no longer than the call timeout, backing off, with a typed error (finding: lock waits)', async () => {
    const entryKey = await emptiedEntry('beta.example');
    const client = redis.client;
    // A holder that keeps its lock alive (as a slow process asking the service would).
    await client.set(`${entryKey}:lock`, 'holder', { PX: 5_000 });
    const commands: string[] = [];
    const counting = new Proxy(client, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (['get', 'set', 'del', 'sendCommand', 'mGet'].includes(String(name))) commands.push(String(name));
          return value.apply(target, args);
        };
      },
    });
    const error = await trustThrough(counting)
      .decide('beta.example', undefined, { timeout: 1_500 })
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(AgentApiError);
    expect((error as Error).name).toBe('APIConnectionTimeoutError');
    // Backing off from 25 ms to a second: a handful of round trips, not one every 50 ms.
    expect(commands.length).toBeLessThan(30);
    expect(service?.scans.get('beta.example')).toBe(1);
  }, 20_000);

  it('Redis killed mid-run: no crash, one warning per worker, decisions still right', async () => {
    service = await startDecideStandIn({ latencyMs: 100 });
    const run = runWorkers<WorkerResult>(
      WORKER,
      Array.from({ length: 8 }, () => ({
        baseUrl: service?.url,
        redisUrl: redis.server.url,
        domains: DOMAINS,
        rounds: 4,
        pauseMs: 1_000,
      })),
    );
    // Mid-run: every worker connected, and the first round's scans are in.
    await run.running(() => (service?.scans.size ?? 0) >= DOMAINS.length);
    await redis.server.kill();
    const outcomes = await run;
    await redis.server.restart();
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
});
