/**
 * The shared budget against a real `redis-server` and real worker processes, each with its own Redis connection
 * and `StoreClient` (test/fleet-worker.ts, running the built package).
 */
import { fileURLToPath } from 'node:url';
import { AgentApiError } from '@agent-apis/core';
import { type LimitedStore, startLimitedStore } from '@agent-apis/test-utils/limited-store';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { runWorkers } from '@agent-apis/test-utils/workers';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreClient } from './client.js';
import { fleetShare } from './rate-limit-fleet.js';
import { CANARY } from './test-support.js';

const WORKER = fileURLToPath(new URL('../test/fleet-worker.ts', import.meta.url));

interface WorkerResult {
  answered: number;
  errors: string[];
  waits: number[];
  seconds: number;
  warnings: string[];
}

describe('rateLimit option checks (no Redis needed)', () => {
  it.each([
    [{ workers: 0 }, 'rateLimit.workers'],
    [{ workers: 2.5 }, 'rateLimit.workers'],
    [{ redis: {} }, 'rateLimit.redis'],
    [{ redis: 'redis://127.0.0.1' }, 'rateLimit.redis'],
    [{ key: 'shop' }, 'rateLimit.key'],
  ])('refuses %j before any request, naming %s', (rateLimit, field) => {
    expect(() => new StoreClient({ ...CANARY, accessToken: undefined, rateLimit } as never)).toThrow(AgentApiError);
    expect(() => new StoreClient({ ...CANARY, accessToken: undefined, rateLimit } as never)).toThrow(field);
  });

  it('shares each window among `workers` processes while Redis is away, never unlimited', () => {
    expect(
      fleetShare(
        [
          { limit: 20, windowMs: 1_000 },
          { limit: 800, windowMs: 60_000 },
        ],
        8,
      ),
    ).toEqual([
      { limit: 2, windowMs: 1_000 },
      { limit: 100, windowMs: 60_000 },
    ]);
    expect(fleetShare([{ limit: 20, windowMs: 1_000 }], 40)).toEqual([{ limit: 1, windowMs: 2_000 }]);
  });
});

describeWithRedis('a fleet sharing one store budget through Redis', (redis) => {
  let store: LimitedStore | undefined;

  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  const fleet = (count: number, config: Record<string, unknown>) =>
    runWorkers<WorkerResult>(
      WORKER,
      Array.from({ length: count }, () => ({ redisUrl: redis.server.url, ...config })),
    );

  it('8 processes × 40 calls: every call answered by the store, every process served', async () => {
    store = await startLimitedStore();
    const outcomes = await fleet(8, { baseUrl: store.url, calls: 40, login: `fleet-${Date.now()}` });
    for (const outcome of outcomes) {
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.result?.errors).toEqual([]);
      expect(outcome.result?.answered).toBe(40);
      // A loaded machine may make Redis slow (degraded for a while), which is warned about at most once a minute.
      expect(outcome.result?.warnings.length).toBeLessThanOrEqual(1);
    }
    // Every call was answered by the store. How many 429s arrival jitter costs on this machine, and the fleet's
    // share of the budget, are figures of `pnpm bench workers`, not of a test.
    expect(store.accepted).toHaveLength(320);
  }, 90_000);

  it('keys the budget by the store and a hash of the login, never a credential; rateLimit.key overrides it', async () => {
    store = await startLimitedStore();
    const login = `fleet-key-${Date.now()}`;
    await fleet(1, { baseUrl: store.url, calls: 3, login });
    await fleet(1, { baseUrl: store.url, calls: 3, login, key: 'my-shop-budget' });
    const keys = await redis.client.keys('*');
    const ours = keys.filter((key) => key.includes(store?.url ?? '-'));
    expect(ours.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).not.toContain(login);
      expect(key).not.toContain('fleet-test-token');
    }
    expect(keys.some((key) => key.startsWith('my-shop-budget:'))).toBe(true);
  }, 60_000);

  it('a ban seen by one worker pauses all of them until its reset', async () => {
    store = await startLimitedStore({ banAt: { request: 5, ms: 3_000 } });
    const outcomes = await fleet(4, { baseUrl: store.url, calls: 10, login: `fleet-ban-${Date.now()}` });
    const errors = outcomes.flatMap((outcome) => outcome.result?.errors ?? []);
    // The call that got the ban answer fails with it; every other call waits the ban out and is answered.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/ban/i);
    expect(store.banUntil).toBeDefined();
    // Only calls a process had been granted before it learnt of the ban can land inside it: at most one trip's
    // reservations (a quarter of a second's slots) per process, plus, for a process that found Redis slow, one
    // second of its share (2 a second) before its next trip reads the hold.
    expect(store.duringBan.length).toBeLessThanOrEqual(4 * (4 + 2));
    expect(store.accepted).toHaveLength(39);
  }, 60_000);

  it('Redis killed mid-run: no crash, one warning per worker, every call answered', async () => {
    store = await startLimitedStore();
    const run = fleet(8, { baseUrl: store.url, calls: 40, login: `fleet-kill-${Date.now()}` });
    // Mid-run: every worker connected, and a quarter of the calls answered.
    await run.running(() => (store?.accepted.length ?? 0) >= 80);
    await redis.server.kill();
    const outcomes = await run;
    await redis.server.restart();
    for (const outcome of outcomes) {
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.result?.errors).toEqual([]);
      expect(outcome.result?.answered).toBe(40);
      // One warning per worker that met the outage (one may have had all its turns before it), never more.
      expect(outcome.result?.warnings.length).toBeLessThanOrEqual(1);
    }
    const warnings = outcomes.flatMap((outcome) => outcome.result?.warnings ?? []);
    expect(warnings.length).toBeGreaterThanOrEqual(4);
    for (const warning of warnings) expect(warning).toMatch(/Redis is unavailable.*rateLimit\.workers/);
    expect(store.accepted).toHaveLength(320);
  }, 120_000);
});
