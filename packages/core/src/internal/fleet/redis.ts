/**
 * What the fleet features (the store's shared budget, trust's shared decisions) need of Redis: the shape of a
 * node-redis client, commands with a deadline, and one warning per outage. No Redis code is loaded here: the
 * application passes its own connected client (`redis` v5 or later, an optional peer dependency).
 */
import { RedisUnavailableError } from '../call/answer-errors.js';
import type { RedisClientLike } from './redis-client.js';

export { assertRedisClient, type RedisClientLike } from './redis-client.js';

import type { Logger } from '../call/logger.js';
import { timerDelay } from '../call/timers.js';

/** Longest a single Redis command may take before Redis counts as unavailable. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** How long a process leaves Redis alone after a failure before trying it again. */
export const REDIS_RETRY_MS = 1_000;

/** A new outage within this long of the last warning is not warned about again (a flapping connection). */
const WARN_EVERY_MS = 60_000;

/** `promise`, or a rejection with {@link RedisUnavailableError} once `ms` passed without an answer. */
export function withDeadline<T>(promise: Promise<T>, ms: number = REDIS_COMMAND_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError(`no answer within ${ms} ms`)), timerDelay(ms));
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Redis health as one process sees it: after a failure Redis is left alone for {@link REDIS_RETRY_MS}, one
 * warning goes to the logger per outage, and a note when it answers again. A node-redis client emits `error`
 * events and crashes the process when none is listened to: whoever takes the client guards it first
 * (`assertRedisClient` when an option takes it, `guardRedisClient`).
 */
export class RedisHealth {
  readonly #redis: RedisClientLike;
  readonly #logger: Logger;
  readonly #feature: string;
  readonly #fallback: string;
  readonly #now: () => number;
  #retryAt: number | undefined;
  #warnedAt = Number.NEGATIVE_INFINITY;

  /**
   * `feature` and `fallback` make the warning: `<feature>: Redis is unavailable (<reason>); <fallback>`, e.g.
   * `StoreClient rate limit` and `this process keeps to 1/8 of the budget until Redis answers again`.
   */
  constructor(
    redis: RedisClientLike,
    logger: Logger,
    feature: string,
    fallback: string,
    now: () => number = () => Date.now(),
  ) {
    this.#redis = redis;
    this.#logger = logger;
    this.#feature = feature;
    this.#fallback = fallback;
    this.#now = now;
  }

  /** True while Redis is considered down (a failure less than a second ago, or a client that is not ready). */
  get down(): boolean {
    if (this.#retryAt !== undefined && this.#now() < this.#retryAt) return true;
    if (!this.#redis.isReady) {
      this.failed(new RedisUnavailableError('the client is not ready'));
      return true;
    }
    return false;
  }

  /**
   * Records a failure: one warning per outage (at most one a minute). Returns true when this failure started the
   * outage.
   */
  failed(error: unknown): boolean {
    const started = this.#retryAt === undefined;
    const now = this.#now();
    this.#retryAt = now + REDIS_RETRY_MS;
    if (started && now - this.#warnedAt >= WARN_EVERY_MS) {
      this.#warnedAt = now;
      const reason = error instanceof Error ? error.message : String(error);
      this.#logger.warn(`${this.#feature}: Redis is unavailable (${reason}); ${this.#fallback}`);
    }
    return started;
  }

  /** Records a success: ends an outage. */
  succeeded(): void {
    if (this.#retryAt === undefined) return;
    this.#retryAt = undefined;
    this.#logger.info(`${this.#feature}: Redis answers again`);
  }
}

/** Hex SHA-256 of `text` (Web Crypto: Node, Deno, Bun and workers alike). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return hex(digest);
}

/** Hex HMAC-SHA-256 of `text` under `secret`. */
export async function hmacSha256Hex(secret: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return hex(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
