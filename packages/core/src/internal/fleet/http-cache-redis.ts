/**
 * The shared tier of {@link HttpCache}: entries in Redis for every process using the same Redis. Loaded only by a
 * cache created with `shared`. Redis is not trusted: a key's name is an HMAC of the request's primary key and each
 * value is signed for its key, both under the fleet's `secret`, so no Redis user can find, forge or move an entry;
 * a value is read only up to {@link MAX_SHARED_VALUE_BYTES} (the size is checked in Redis, before it is sent), and
 * anything that fails a check is a miss. Redis faults make it a miss too (one warning per outage), never an error.
 */

import type { Logger } from '../call/logger.js';
import type { CacheEntry } from './cache-entry.js';
import { type RedisClientLike, RedisHealth, withDeadline } from './redis.js';
import { guardRedisClient } from './redis-client.js';
import { getBounded, keyedName, signValue, verifyValue } from './redis-values.js';

/** Largest value read from or written to the tier: a 1 MiB body in base64 and its headers, signed. */
export const MAX_SHARED_VALUE_BYTES = 1_536 * 1024;

/** What the entries of the tier are signed for (one secret may sign other things too). */
const PURPOSE = 'http-cache';

export class RedisCacheTier {
  readonly #redis: RedisClientLike;
  readonly #health: RedisHealth;
  readonly #secret: string;

  constructor(redis: RedisClientLike, logger: Logger, now: () => number, secret: string) {
    // An HttpCache built by hand with a shared tier has had no option check: its client is guarded here.
    guardRedisClient(redis);
    this.#redis = redis;
    this.#secret = secret;
    this.#health = new RedisHealth(
      redis,
      logger,
      'HTTP cache',
      'responses are cached in this process only until Redis answers again',
      now,
    );
  }

  /**
   * The entry stored under `key`, or undefined on a miss, a value too large, one not signed with this fleet's
   * secret for this key, one that does not parse, or a Redis fault. The caller re-caps what it gets.
   */
  async get(key: string): Promise<CacheEntry | undefined> {
    if (this.#health.down) return undefined;
    try {
      const redisKey = await this.#redisKey(key);
      const raw = await withDeadline(getBounded(this.#redis, redisKey, MAX_SHARED_VALUE_BYTES));
      this.#health.succeeded();
      if (raw === null) return undefined;
      const value = await verifyValue(this.#secret, PURPOSE, redisKey, raw);
      return value === undefined ? undefined : parseEntry(value);
    } catch (error) {
      this.#health.failed(error);
      return undefined;
    }
  }

  /** Stores `entry` under `key` for `ttlMs`; a Redis fault only costs the write. */
  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    if (this.#health.down) return;
    try {
      const redisKey = await this.#redisKey(key);
      const value = await signValue(this.#secret, PURPOSE, redisKey, serializeEntry(entry));
      if (value.length > MAX_SHARED_VALUE_BYTES) return;
      await withDeadline(this.#redis.set(redisKey, value, { PX: Math.max(1, Math.ceil(ttlMs)) }));
      this.#health.succeeded();
    } catch (error) {
      this.#health.failed(error);
    }
  }

  /** Drops the entry of `key` (an answer that says it must not be stored any more). */
  async delete(key: string): Promise<void> {
    if (this.#health.down) return;
    try {
      await withDeadline(this.#redis.del(await this.#redisKey(key)));
      this.#health.succeeded();
    } catch (error) {
      this.#health.failed(error);
    }
  }

  /** The Redis key of a primary key: an HMAC, so no URL or header value is written, nor can one be looked up. */
  async #redisKey(key: string): Promise<string> {
    return `agent-apis:http-cache:v2:${await keyedName(this.#secret, PURPOSE, key)}`;
  }
}

function serializeEntry(entry: CacheEntry): string {
  let binary = '';
  const bytes = new Uint8Array(entry.body);
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return JSON.stringify({
    status: entry.status,
    statusText: entry.statusText,
    headers: [...entry.headers],
    body: btoa(binary),
    receivedAt: entry.receivedAt,
    varyNames: entry.varyNames,
    varyKey: entry.varyKey,
  });
}

/** An entry read back (freshness is worked out again by the engine from the headers), or undefined. */
function parseEntry(raw: string): CacheEntry | undefined {
  try {
    const data = JSON.parse(raw) as Record<string, unknown>;
    if (data.status !== 200 || typeof data.body !== 'string' || !Array.isArray(data.headers)) return undefined;
    if (typeof data.receivedAt !== 'number' || !Number.isFinite(data.receivedAt)) return undefined;
    if (!Array.isArray(data.varyNames) || typeof data.varyKey !== 'string') return undefined;
    const binary = atob(data.body);
    const body = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) body[index] = binary.charCodeAt(index);
    const headers = new Headers(data.headers as [string, string][]);
    return {
      status: 200,
      statusText: typeof data.statusText === 'string' ? data.statusText : '',
      headers,
      body: body.buffer,
      receivedAt: data.receivedAt,
      freshForMs: 0,
      varyNames: data.varyNames.map(String),
      varyKey: data.varyKey,
    };
  } catch {
    return undefined;
  }
}
