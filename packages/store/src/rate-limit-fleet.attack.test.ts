/**
 * The shared budget against a Redis that someone else can write to (another tenant, a leaked password) and a Redis
 * that is slow: a real `redis-server`, a real loopback store stand-in, clients in this process. Every assertion is
 * a count or an outcome the code guarantees, never a duration.
 */
import { AgentApiError, RateLimitBanError } from '@agent-apis/core';
import { type LimitedStore, startLimitedStore } from '@agent-apis/test-utils/limited-store';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { createClient, type RedisClientType } from 'redis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { StoreClient } from './client.js';

/** The longest hold the client takes from a ban's reset (rate-limit-options.ts MAX_HOLD_MS): 24 h. */
const MAX_HOLD_MS = 24 * 60 * 60 * 1000;

/** A node-redis client seen through a proxy: counts commands, delays each by `delayMs`, notes the longest reply. */
function watched(client: RedisClientType, delayMs = 0) {
  const seen = { commands: 0, longestReply: 0 };
  const proxy = new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || !['get', 'mGet', 'set', 'del', 'sendCommand'].includes(String(name))) {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: unknown[]) => {
        seen.commands++;
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        const reply: unknown = await value.apply(target, args);
        seen.longestReply = Math.max(seen.longestReply, JSON.stringify(reply ?? null).length);
        return reply;
      };
    },
  });
  return { redis: proxy, seen };
}

describeWithRedis('the fleet budget against a Redis others write to, or a slow one', (redis) => {
  let store: LimitedStore;
  const login = () => `attack-${Math.random().toString(36).slice(2)}`;
  const key = (name: string) => `agent-apis-attack:${name}`;

  beforeEach(async () => {
    store = await startLimitedStore();
  });
  afterEach(async () => {
    await store.close();
  });

  const client = (budget: string, options: Record<string, unknown> = {}) =>
    new StoreClient({
      baseUrl: store.url,
      login: login(),
      authToken: 'fleet-test-token',
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      maxRetries: 0,
      ...options,
      rateLimit: { redis: redis.client, key: key(budget), ...(options.rateLimit as object) },
    });

  it('starts with Redis down as it goes on when Redis dies: one warning, every call answered, no hang (issue 29 item 6)', async () => {
    // A port nothing listens on, connected the way the fleet example does: not awaited, retried in the background.
    const down = createClient({
      url: 'redis://127.0.0.1:1',
      socket: { connectTimeout: 500, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000) },
    });
    down.on('error', () => undefined);
    down.connect().catch(() => undefined);
    const warnings: string[] = [];
    const shop = new StoreClient({
      baseUrl: store.url,
      login: login(),
      authToken: 'fleet-test-token',
      logger: { debug() {}, info() {}, warn: (line: string) => warnings.push(line), error() {} },
      rateLimit: { redis: down as never, workers: 4 },
    });
    await expect(
      Promise.all(Array.from({ length: 4 }, () => shop.api.listProducts({ timeout: 10_000 }))),
    ).resolves.toHaveLength(4);
    down.destroy();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Redis is unavailable.*1\/4 of the budget/);
  }, 30_000);

  it('ignores a ban or pause another Redis user wrote (finding: one Redis key stops a store fleet)', async () => {
    const far = String(Date.now() + 10 * 365 * 86_400_000);
    for (const kind of ['ban', 'pause', 'full']) await redis.client.set(`${key('forged')}:${kind}`, far);
    const calls = Array.from({ length: 5 }, () => client('forged').api.listProducts({ timeout: 5_000 }));
    await expect(Promise.all(calls)).resolves.toHaveLength(5);
    expect(store.accepted).toHaveLength(5);
  }, 30_000);

  it('ends a call held by a genuine ban at its timeout with a typed error, and lifts the hold once the key is gone', async () => {
    // Another process of the fleet: its own connection, so its own limiter.
    const other = createClient({ url: redis.server.url });
    other.on('error', () => undefined);
    await other.connect();
    const shop = client('held', { rateLimit: { redis: other } });
    // A ban the fleet really saw (through its own client, signed): held for about 10 minutes.
    const stand = await startLimitedStore({ banAt: { request: 1, ms: 600_000 } });
    const banned = new StoreClient({
      baseUrl: stand.url,
      login: 'held-login',
      authToken: 'fleet-test-token',
      maxRetries: 0,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      rateLimit: { redis: redis.client, key: key('held') },
    });
    await expect(banned.api.listProducts()).rejects.toBeInstanceOf(RateLimitBanError);
    await stand.close();
    for (let tries = 0; tries < 100 && !(await redis.client.exists(`${key('held')}:ban`)); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const error = await shop.api.listProducts({ timeout: 300 }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(AgentApiError);
    expect((error as Error).name).toBe('APIConnectionTimeoutError');
    expect(store.accepted).toHaveLength(0);
    // The hold is read from Redis, not kept for ever: once the key is gone, calls go again.
    await redis.client.del(`${key('held')}:ban`);
    await expect(shop.api.listProducts({ timeout: 15_000 })).resolves.toBeDefined();
    other.destroy();
  }, 30_000);

  it('caps a ban reset years away at 24 hours, in Redis and without it, with a warning (finding: one store answer stops a fleet for ever)', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (line: string) => warnings.push(line), error() {} };
    // The stand-in's reset is replaced by the year 9999 on the way back.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const answer = await globalThis.fetch(input, init);
      const headers = new Headers(answer.headers);
      if (headers.has('Jumpseller-BannedByRateLimit-Reset')) {
        headers.set('Jumpseller-BannedByRateLimit-Reset', 'Fri, 31 Dec 9999 23:59:59 GMT');
      }
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
    };
    for (const rateLimit of [{ redis: redis.client, key: key('forever') }, {}]) {
      const stand = await startLimitedStore({ banAt: { request: 1, ms: 1_000 } });
      const shop = new StoreClient({
        baseUrl: stand.url,
        login: `forever-${Object.keys(rateLimit).length}`,
        authToken: 'fleet-test-token',
        maxRetries: 0,
        fetch,
        logger,
        rateLimit,
      });
      const error = (await shop.api.listProducts().catch((failure: unknown) => failure)) as RateLimitBanError;
      expect(error).toBeInstanceOf(RateLimitBanError);
      expect(error.resetAt.getTime()).toBeLessThanOrEqual(Date.now() + MAX_HOLD_MS);
      await stand.close();
    }
    for (let tries = 0; tries < 100 && (await redis.client.pTTL(`${key('forever')}:ban`)) < 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ttl = await redis.client.pTTL(`${key('forever')}:ban`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(MAX_HOLD_MS);
    expect(warnings.filter((line) => /24 hours/.test(line))).toHaveLength(2);
  }, 30_000);

  it('reads no oversized hold and clamps negative counters (finding: 128 MiB ban value, negative counters)', async () => {
    await redis.client.set(`${key('big')}:ban`, 'x'.repeat(8 * 1024 * 1024));
    // Negative counts for every second of the last minute, as if the fleet had spent nothing.
    const now = Math.floor(Date.now() / 1_000);
    for (let age = -5; age < 65; age++) await redis.client.set(`${key('big')}:second:${now - age}`, '-1000000');
    const { redis: proxy, seen } = watched(redis.client);
    // perMinute 25 at perSecond 20: a minute budget of 7 grants (25 less a second's 18 slots).
    const shop = new StoreClient({
      baseUrl: store.url,
      login: login(),
      authToken: 'fleet-test-token',
      maxRetries: 0,
      rateLimit: { redis: proxy as never, key: key('big'), perSecond: 20, perMinute: 25 },
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () => shop.api.listProducts({ timeout: 3_000 })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(7);
    expect(store.accepted).toHaveLength(7);
    expect(seen.longestReply).toBeLessThan(64 * 1024);
  }, 30_000);

  it('grants in one round trip each, and takes a Redis slower than 500 ms a grant for an unavailable one (finding: a slow Redis throttles the store)', async () => {
    const fast = watched(redis.client);
    const shop = client('trips', { rateLimit: { redis: fast.redis } });
    await Promise.all(Array.from({ length: 8 }, () => shop.api.listProducts({ timeout: 10_000 })));
    // One script per trip, and a trip serves several waiters: never more commands than calls.
    expect(fast.seen.commands).toBeGreaterThan(0);
    expect(fast.seen.commands).toBeLessThanOrEqual(8);

    const warnings: string[] = [];
    const slow = watched(redis.client, 700);
    const slowShop = client('slow', {
      logger: { debug() {}, info() {}, warn: (line: string) => warnings.push(line), error() {} },
      rateLimit: { redis: slow.redis, workers: 4 },
    });
    await Promise.all(Array.from({ length: 6 }, () => slowShop.api.listProducts({ timeout: 10_000 })));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Redis is unavailable \(a grant took \d+ ms, over 500 ms\).*1\/4/);
  }, 30_000);
});
