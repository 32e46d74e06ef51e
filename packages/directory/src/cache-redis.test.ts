/**
 * The HTTP cache shared through a real `redis-server`: clients with separate in-process caches (as separate
 * processes have) answer from what another stored, under the same rules; Redis faults fall back to the process.
 */
import { AgentApiError, CACHE_STATUS_HEADER } from '@agent-apis/core';
import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { findRedisServer, REDIS_MISSING, type RedisServer, startRedisServer } from '@agent-apis/test-utils/redis';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClient } from './test-support.js';

const stats = { personas: 1, skills: 2, bundles: 3, agents: 4, tools: 5, guides: 6 };

function statsServer(cacheControl: string) {
  return fetchStub(() => jsonResponse(stats, { headers: { etag: '"v1"', 'cache-control': cacheControl } }));
}

describe('cache: { redis } option checks (no Redis needed)', () => {
  it.each([[{}], [{ redis: 'redis://127.0.0.1:6379' }]])('refuses cache %j, naming cache.redis', (cache) => {
    const create = () => testClient(statsServer('max-age=60'), { cache } as never);
    expect(create).toThrow(AgentApiError);
    expect(create).toThrow('cache.redis');
  });
});

const redisServer = findRedisServer();

describe.skipIf(!redisServer)(
  `the HTTP cache shared through Redis${redisServer ? '' : ` (skipped: ${REDIS_MISSING})`}`,
  () => {
    let redis: RedisServer;
    let connection: RedisClientType;

    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.stop();
    });
    beforeEach(async () => {
      connection = createClient({ url: redis.url });
      connection.on('error', () => undefined);
      await connection.connect();
      await connection.flushAll();
    });
    afterEach(() => {
      connection.destroy();
    });

    /** Waits for the fire-and-forget write of the shared tier. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

    it('serves another client what one stored while it is fresh, keyed by a hash', async () => {
      const fetch = statsServer('public, max-age=60');
      const first = testClient(fetch, { cache: { redis: connection } });
      const second = testClient(fetch, { cache: { redis: connection } });
      await expect(first.stats()).resolves.toEqual(stats);
      await settle();
      const { data, response } = await second.api.getStats().withResponse();
      expect(data).toEqual(stats);
      expect(response.headers.get(CACHE_STATUS_HEADER)).toBe('hit');
      expect(fetch).toHaveBeenCalledTimes(1);
      const keys = await connection.keys('*');
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^agent-apis:http-cache:[0-9a-f]{64}$/);
    });

    it('never shares a `private` or `no-store` answer', async () => {
      for (const cacheControl of ['private, max-age=60', 'no-store']) {
        const fetch = statsServer(cacheControl);
        await testClient(fetch, { cache: { redis: connection } }).stats();
        await settle();
        await testClient(fetch, { cache: { redis: connection } }).stats();
        expect(fetch).toHaveBeenCalledTimes(2);
      }
      expect(await connection.keys('*')).toEqual([]);
    });

    it('ignores an entry that is not one it wrote, and keeps working with one warning when Redis is gone', async () => {
      const fetch = statsServer('public, max-age=60');
      const warnings: string[] = [];
      const logger = { ...console, warn: (message: string) => warnings.push(message) };
      await testClient(fetch, { cache: { redis: connection } }).stats();
      await settle();
      const [key] = (await connection.keys('*')) as [string];
      await connection.set(key, JSON.stringify({ v: 1, status: 200, body: 'not base64 json!' }));
      await expect(testClient(fetch, { cache: { redis: connection } }).stats()).resolves.toEqual(stats);
      expect(fetch).toHaveBeenCalledTimes(2);

      const client = testClient(fetch, { cache: { redis: connection }, logger });
      await redis.kill();
      await expect(client.stats()).resolves.toEqual(stats);
      await expect(client.stats()).resolves.toEqual(stats);
      await redis.restart();
      expect(fetch).toHaveBeenCalledTimes(3);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/HTTP cache: Redis is unavailable/);
    });
  },
);
