/**
 * The HTTP cache shared through a real `redis-server`: clients with separate in-process caches (as separate
 * processes have) answer from what another stored, under the same rules; Redis faults fall back to the process.
 */
import { AgentApiError, CACHE_STATUS_HEADER, HttpCache } from '@agent-apis/core';
import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { testClient } from './test-support.js';

/** The fleet's secret in these tests; an attacker with Redis access does not have it. */
const secret = 'fleet secret: 32 characters long';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** `fetchThrough`'s next step over a fetch stub. */
const through = (fetch: typeof globalThis.fetch) => (sent: { url: string; headers: Headers }) =>
  fetch(sent.url, { headers: sent.headers });

const stats = { personas: 1, skills: 2, bundles: 3, agents: 4, tools: 5, guides: 6 };

function statsServer(cacheControl: string) {
  return fetchStub(() => jsonResponse(stats, { headers: { etag: '"v1"', 'cache-control': cacheControl } }));
}

describe('cache: { redis } option checks (no Redis needed)', () => {
  it.each([[{ secret }], [{ redis: 'redis://127.0.0.1:6379', secret }]])(
    'refuses cache %j, naming cache.redis',
    (cache) => {
      const create = () => testClient(statsServer('max-age=60'), { cache } as never);
      expect(create).toThrow(AgentApiError);
      expect(create).toThrow('cache.redis');
    },
  );

  it('refuses a shared cache without the fleet secret, naming cache.secret', () => {
    const redis = createClient();
    for (const cache of [{ redis }, { redis, secret: 'short' }]) {
      const create = () => testClient(statsServer('max-age=60'), { cache } as never);
      expect(create).toThrow(AgentApiError);
      expect(create).toThrow('cache.secret');
    }
  });
});

describeWithRedis('the HTTP cache shared through Redis', (redis) => {
  /** Waits for the fire-and-forget write of the shared tier (or lets a write that should not happen have its turn). */
  const settle = async (keys = 1) => {
    for (let tries = 0; tries < 50 && (await redis.client.keys('*')).length < keys; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('serves another client what one stored while it is fresh, keyed by a hash', async () => {
    const fetch = statsServer('public, max-age=60');
    const first = testClient(fetch, { cache: { redis: redis.client, secret } });
    const second = testClient(fetch, { cache: { redis: redis.client, secret } });
    await expect(first.stats()).resolves.toEqual(stats);
    await settle();
    const { data, response } = await second.api.getStats().withResponse();
    expect(data).toEqual(stats);
    expect(response.headers.get(CACHE_STATUS_HEADER)).toBe('hit');
    expect(fetch).toHaveBeenCalledTimes(1);
    const keys = await redis.client.keys('*');
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^agent-apis:http-cache:v2:[0-9a-f]{64}$/);
  });

  it('never shares a `private` or `no-store` answer', async () => {
    for (const cacheControl of ['private, max-age=60', 'no-store']) {
      const fetch = statsServer(cacheControl);
      await testClient(fetch, { cache: { redis: redis.client, secret } }).stats();
      await settle(1);
      await testClient(fetch, { cache: { redis: redis.client, secret } }).stats();
      expect(fetch).toHaveBeenCalledTimes(2);
    }
    expect(await redis.client.keys('*')).toEqual([]);
  });

  it('ignores an entry that is not one it wrote, and keeps working with one warning when Redis is gone', async () => {
    const fetch = statsServer('public, max-age=60');
    const warnings: string[] = [];
    const logger = { ...console, warn: (message: string) => warnings.push(message) };
    await testClient(fetch, { cache: { redis: redis.client, secret } }).stats();
    await settle();
    const [key] = (await redis.client.keys('*')) as [string];
    await redis.client.set(key, 'x'.repeat(43) + JSON.stringify({ v: 1, status: 200, body: 'not base64 json!' }));
    await expect(testClient(fetch, { cache: { redis: redis.client, secret } }).stats()).resolves.toEqual(stats);
    expect(fetch).toHaveBeenCalledTimes(2);

    const client = testClient(fetch, { cache: { redis: redis.client, secret }, logger });
    await redis.server.kill();
    await expect(client.stats()).resolves.toEqual(stats);
    await expect(client.stats()).resolves.toEqual(stats);
    await redis.server.restart();
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/HTTP cache: Redis is unavailable/);
  });

  /**
   * What another tenant with write access to Redis writes over every entry: an answer pointing elsewhere. The
   * client that next misses writes the genuine answer back (fire and forget): `forgeEveryEntry` returns a wait for
   * that write, so the next forgery is not undone by it.
   */
  async function forgeEveryEntry(value: (old: string) => string) {
    const forged = new Map<string, string>();
    for (const key of await redis.client.keys('*')) {
      const old = (await redis.client.get(key)) ?? '';
      forged.set(key, value(old));
      await redis.client.set(key, value(old), { PX: 10 * 365 * 86_400_000 });
    }
    return async () => {
      for (const [key, text] of forged) {
        for (let tries = 0; tries < 100 && (await redis.client.get(key)) === text; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    };
  }

  it('serves no entry another Redis user rewrote or wrote, whatever its freshness claims (finding: unauthenticated tier)', async () => {
    const fetch = statsServer('public, max-age=60');
    await testClient(fetch, { cache: { redis: redis.client, secret } }).stats();
    await settle();
    const evil = { ...stats, personas: 666 };
    const body = btoa(JSON.stringify(evil));
    const forged = (old: string) => {
      const dot = old.indexOf('.');
      const entry = JSON.parse(old.slice(dot + 1)) as Record<string, unknown>;
      // The old MAC with a new body, then an unsigned entry of the old format with ten years of freshness.
      return `${old.slice(0, dot)}.${JSON.stringify({ ...entry, body, receivedAt: Date.now() })}`;
    };
    const rewritten = await forgeEveryEntry(forged);
    await expect(testClient(fetch, { cache: { redis: redis.client, secret } }).stats()).resolves.toEqual(stats);
    await rewritten();
    await forgeEveryEntry(() =>
      JSON.stringify({
        v: 1,
        status: 200,
        headers: [['content-type', 'application/json']],
        body,
        receivedAt: Date.now(),
        freshForMs: 10 * 365 * 86_400_000,
        varyNames: [],
        varyKey: '',
      }),
    );
    await expect(testClient(fetch, { cache: { redis: redis.client, secret } }).stats()).resolves.toEqual(stats);
    // Another fleet (another secret) cannot read this one's entries either.
    await expect(
      testClient(fetch, { cache: { redis: redis.client, secret: `${secret} of another fleet` } }).stats(),
    ).resolves.toEqual(stats);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('re-caps a genuine entry to this process: a receipt time a day ahead is no extra day of freshness', async () => {
    const now = Date.now();
    const fetch = statsServer('public, max-age=86400');
    // A process whose clock is a day ahead writes the entry (genuinely: it holds the secret).
    const writer = new HttpCache({
      shared: { redis: redis.client, logger: quiet, secret },
      now: () => now + 86_400_000,
    });
    const request = { method: 'GET', url: 'https://directory.test/api/stats', headers: new Headers() };
    await writer.fetchThrough(request, through(fetch));
    await settle();
    // An hour and a minute later on a right clock, past the 1-hour cap: neither it nor a copy of it is fresh.
    const reader = new HttpCache({
      shared: { redis: redis.client, logger: quiet, secret },
      now: () => now + 3_660_000,
    });
    const answer = await reader.fetchThrough(request, through(fetch));
    expect(answer.headers.get(CACHE_STATUS_HEADER)).not.toBe('hit');
    const again = await reader.fetchThrough(request, through(fetch));
    expect(again.headers.get(CACHE_STATUS_HEADER)).toBe('hit');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('reads no value over its size bound, and one of another type is a miss (finding: reads not size-bounded)', async () => {
    const fetch = statsServer('public, max-age=60');
    await testClient(fetch, { cache: { redis: redis.client, secret } }).stats();
    await settle();
    const [key] = (await redis.client.keys('*')) as [string];
    const before = await redis.client.get(key);
    // A genuine entry padded past the bound is never sent: the read returns nothing and the call goes on.
    await redis.client.set(key, `${before}${' '.repeat(2 * 1024 * 1024)}`);
    const reads: string[] = [];
    const spy = new Proxy(redis.client, {
      get(target, name, receiver) {
        if (name === 'sendCommand') {
          return (args: string[]) => {
            reads.push(args[0] ?? '');
            return target.sendCommand(args);
          };
        }
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (name === 'get' || name === 'mGet' || name === 'getRange') reads.push(String(name));
          return value.apply(target, args);
        };
      },
    });
    await expect(testClient(fetch, { cache: { redis: spy as never, secret } }).stats()).resolves.toEqual(stats);
    expect(reads.filter((command) => command !== 'EVALSHA' && command !== 'EVAL')).toEqual([]);
    // The miss is followed by a write of the fresh answer (fire and forget): it lands before the next step.
    for (let tries = 0; tries < 100 && (await redis.client.strLen(key)) > 1024 * 1024; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await redis.client.del(key);
    await redis.client.hSet(key, 'field', 'value');
    await expect(testClient(fetch, { cache: { redis: redis.client, secret } }).stats()).resolves.toEqual(stats);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('keeps no answer to a credentialed request, with Set-Cookie, or after a no-store 304 (finding: what the tier keeps)', async () => {
    const shared = () => new HttpCache({ shared: { redis: redis.client, logger: quiet, secret } });
    const url = 'https://directory.test/api/stats';
    for (const name of ['x-api-key', 'x-auth-token', 'proxy-authorization', 'authorization', 'cookie']) {
      const fetch = statsServer('public, max-age=60');
      await shared().fetchThrough({ method: 'GET', url, headers: new Headers({ [name]: 'tenant-a' }) }, through(fetch));
    }
    const cookie = fetchStub(() =>
      jsonResponse(stats, { headers: { 'cache-control': 'public, max-age=60', 'set-cookie': 'session=tenantB-1' } }),
    );
    await shared().fetchThrough({ method: 'GET', url, headers: new Headers() }, through(cookie));
    await settle(1);
    expect(await redis.client.keys('*')).toEqual([]);

    // A stored entry, then a 304 that says no-store: the entry is dropped, not rewritten.
    let answer = 0;
    const revalidating = fetchStub(() =>
      answer++ === 0
        ? jsonResponse(stats, { headers: { etag: '"v1"', 'cache-control': 'public, max-age=0' } })
        : new Response(null, { status: 304, headers: { etag: '"v1"', 'cache-control': 'no-store' } }),
    );
    const cache = shared();
    await cache.fetchThrough({ method: 'GET', url, headers: new Headers() }, through(revalidating));
    await settle(1);
    expect(await redis.client.keys('*')).toHaveLength(1);
    await cache.fetchThrough({ method: 'GET', url, headers: new Headers() }, through(revalidating));
    for (let tries = 0; tries < 200 && (await redis.client.keys('*')).length > 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await redis.client.keys('*')).toEqual([]);
  });

  it('answers a second call from the cache under `public, s-maxage=300`, in memory and in Redis (issue 29 item 5)', async () => {
    const fetch = fetchStub(() =>
      jsonResponse(stats, { headers: { 'cache-control': 'public, s-maxage=300, stale-while-revalidate=600' } }),
    );
    const first = testClient(fetch, { cache: { redis: redis.client, secret } });
    await first.stats();
    const { response } = await first.api.getStats().withResponse();
    expect(response.headers.get(CACHE_STATUS_HEADER)).toBe('hit');
    await settle();
    const other = await testClient(fetch, { cache: { redis: redis.client, secret } })
      .api.getStats()
      .withResponse();
    expect(other.response.headers.get(CACHE_STATUS_HEADER)).toBe('hit');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
