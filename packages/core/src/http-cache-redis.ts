/**
 * The shared tier of {@link HttpCache}: entries in Redis under a hash of their primary key, for every process
 * using the same Redis. Loaded only by a cache created with `shared`. Redis faults make it a miss (one warning
 * per outage), never an error.
 */
import type { CacheEntry } from './cache-entry.js';
import type { Logger } from './logger.js';
import { type RedisClientLike, RedisHealth, sha256Hex, withDeadline } from './redis.js';
import { guardRedisClient } from './redis-client.js';

export class RedisCacheTier {
  readonly #redis: RedisClientLike;
  readonly #health: RedisHealth;

  constructor(redis: RedisClientLike, logger: Logger, now: () => number) {
    // An HttpCache built by hand with a shared tier has had no option check: its client is guarded here.
    guardRedisClient(redis);
    this.#redis = redis;
    this.#health = new RedisHealth(
      redis,
      logger,
      'HTTP cache',
      'responses are cached in this process only until Redis answers again',
      now,
    );
  }

  /** The entry stored under `key`, or undefined on a miss, an entry this cache did not write, or a Redis fault. */
  async get(key: string): Promise<CacheEntry | undefined> {
    if (this.#health.down) return undefined;
    try {
      const raw = await withDeadline(this.#redis.get(await sharedKey(key)));
      this.#health.succeeded();
      return raw === null ? undefined : parseEntry(raw);
    } catch (error) {
      this.#health.failed(error);
      return undefined;
    }
  }

  /** Stores `entry` under `key` for `ttlMs`; a Redis fault only costs the write. */
  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    if (this.#health.down) return;
    try {
      await withDeadline(this.#redis.set(await sharedKey(key), serializeEntry(entry), { PX: Math.ceil(ttlMs) }));
      this.#health.succeeded();
    } catch (error) {
      this.#health.failed(error);
    }
  }
}

/** The Redis key of a primary key: a hash, so no URL or header value is written as a key. */
async function sharedKey(key: string): Promise<string> {
  return `agent-apis:http-cache:${await sha256Hex(key)}`;
}

function serializeEntry(entry: CacheEntry): string {
  let binary = '';
  for (const byte of new Uint8Array(entry.body)) binary += String.fromCharCode(byte);
  return JSON.stringify({
    v: 1,
    status: entry.status,
    statusText: entry.statusText,
    headers: [...entry.headers],
    body: btoa(binary),
    receivedAt: entry.receivedAt,
    freshForMs: entry.freshForMs,
    varyNames: entry.varyNames,
    varyKey: entry.varyKey,
  });
}

/** An entry read back from the shared tier, or undefined when it is not one this cache wrote. */
function parseEntry(raw: string): CacheEntry | undefined {
  try {
    const data = JSON.parse(raw) as Record<string, unknown>;
    if (data.v !== 1 || data.status !== 200 || typeof data.body !== 'string') return undefined;
    if (typeof data.receivedAt !== 'number' || typeof data.freshForMs !== 'number') return undefined;
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
      freshForMs: data.freshForMs,
      varyNames: data.varyNames.map(String),
      varyKey: data.varyKey,
    };
  } catch {
    return undefined;
  }
}
