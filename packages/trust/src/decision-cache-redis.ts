/**
 * Decisions shared by a fleet through Redis: one scan per target and context per validity window, whichever
 * process asks. When several ask at the same moment, one takes a short lock and asks the service; the others
 * wait for its answer. Entries are signed with the API key, so an entry written by anyone without the key (or
 * moved to another key, or kept past its window) is never used. Any Redis fault falls back to the in-process
 * cache: a Redis error can cost a scan, never change a decision.
 */
import {
  hmacSha256Hex,
  type Logger,
  type RedisClientLike,
  RedisHealth,
  sha256Hex,
  withDeadline,
} from '@agent-apis/core';
import { TrustDecision } from './decision.js';
import { expiryOf } from './decision-cache.js';
import type { DecisionResult } from './gen/types.gen.js';

// The client builds the warning logger of a shared cache only once this module is loaded.
export { createLogger, parseLogLevel } from '@agent-apis/core';

/** How long a lock on one decision is held before it must be renewed (the holder renews it while it waits). */
const LOCK_MS = 5_000;
/** How often waiters look for the holder's answer. */
const POLL_MS = 50;
/** Longest a process waits for another's answer before asking the service itself. */
const MAX_WAIT_MS = 60_000;

const ACTIONS = new Set(['proceed', 'proceed_with_caution', 'sandbox', 'escalate_to_human', 'deny']);

/** A decision and when it stops being valid (epoch ms). */
export interface CachedDecision {
  decision: TrustDecision;
  expiresAt: number;
}

/** Options of {@link SharedDecisions}. */
export interface SharedDecisionsOptions {
  redis: RedisClientLike;
  /** The API key: part of every entry's key (hashed) and the secret entries are signed with. */
  apiKey: string;
  /** The service's base URL, part of every entry's key. */
  baseUrl: string;
  logger: Logger;
  now?: () => number;
}

/** The fleet's decisions in Redis, in front of the service. */
export class SharedDecisions {
  readonly #options: SharedDecisionsOptions;
  readonly #health: RedisHealth;
  readonly #now: () => number;

  constructor(options: SharedDecisionsOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => Date.now());
    this.#health = new RedisHealth(
      options.redis,
      options.logger,
      'TrustClient decision cache',
      'decisions are cached in this process only until Redis answers again',
      this.#now,
    );
  }

  /**
   * The fleet's valid decision for `cacheKey`, or `load()`'s, shared with the fleet. Concurrent askers across
   * processes wait for one `load()`. Without Redis it is `load()` alone.
   */
  async get(cacheKey: string, load: () => Promise<TrustDecision>): Promise<CachedDecision> {
    const fresh = async (): Promise<CachedDecision> => {
      const decision = await load();
      return { decision, expiresAt: expiryOf(decision, this.#now()) };
    };
    if (this.#health.down) return fresh();
    let id: string;
    try {
      id = await sha256Hex(`${this.#options.apiKey}\n${this.#options.baseUrl}\n${cacheKey}`);
    } catch {
      return fresh();
    }
    const entryKey = `agent-apis:trust-decision:${id}`;
    const lockKey = `${entryKey}:lock`;
    const token = `${this.#now()}-${Math.random().toString(36).slice(2)}`;
    const waitUntil = this.#now() + MAX_WAIT_MS;
    try {
      for (;;) {
        const cached = await this.#read(entryKey, id);
        if (cached) return cached;
        const locked = await withDeadline(this.#options.redis.set(lockKey, token, { NX: true, PX: LOCK_MS }));
        if (locked !== null) {
          // The previous holder may have written its answer and let go between our read and our lock.
          const written = await this.#read(entryKey, id);
          if (!written) break;
          await this.#release(lockKey, token);
          return written;
        }
        if (this.#now() >= waitUntil) return await fresh();
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      this.#health.succeeded();
    } catch (error) {
      this.#health.failed(error);
      return fresh();
    }
    // This process holds the lock: ask, share the answer, let go.
    const renew = setInterval(() => {
      withDeadline(this.#options.redis.set(lockKey, token, { XX: true, PX: LOCK_MS })).catch(() => undefined);
    }, LOCK_MS / 2);
    try {
      const answer = await fresh();
      await this.#write(entryKey, id, answer).catch((error: unknown) => this.#health.failed(error));
      return answer;
    } finally {
      clearInterval(renew);
      await this.#release(lockKey, token);
    }
  }

  /** The entry at `entryKey` when it is genuine (signed with our key for this id) and still valid. */
  async #read(entryKey: string, id: string): Promise<CachedDecision | undefined> {
    const raw = await withDeadline(this.#options.redis.get(entryKey));
    if (raw === null) return undefined;
    try {
      const entry = JSON.parse(raw) as { v?: unknown; expiresAt?: unknown; result?: unknown; mac?: unknown };
      if (entry.v !== 1 || typeof entry.expiresAt !== 'number' || typeof entry.result !== 'string') return undefined;
      if (typeof entry.mac !== 'string') return undefined;
      const mac = await hmacSha256Hex(this.#options.apiKey, `${id}\n${entry.expiresAt}\n${entry.result}`);
      if (!sameText(mac, entry.mac)) return undefined;
      const now = this.#now();
      if (entry.expiresAt <= now) return undefined;
      const result = JSON.parse(entry.result) as DecisionResult;
      if (!looksLikeDecision(result) || Date.parse(result.validity.valid_until) <= now) return undefined;
      return { decision: new TrustDecision(result), expiresAt: entry.expiresAt };
    } catch {
      return undefined;
    }
  }

  async #write(entryKey: string, id: string, { decision, expiresAt }: CachedDecision): Promise<void> {
    const ttl = Math.floor(expiresAt - this.#now());
    if (!(ttl > 0)) return;
    const result = JSON.stringify(decision.result);
    const mac = await hmacSha256Hex(this.#options.apiKey, `${id}\n${expiresAt}\n${result}`);
    await withDeadline(
      this.#options.redis.set(entryKey, JSON.stringify({ v: 1, expiresAt, result, mac }), { PX: ttl }),
    );
  }

  async #release(lockKey: string, token: string): Promise<void> {
    try {
      if ((await withDeadline(this.#options.redis.get(lockKey))) === token) {
        await withDeadline(this.#options.redis.del(lockKey));
      }
    } catch {
      // The lock expires on its own.
    }
  }
}

/** Equal strings, compared without an early exit. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/** The fields `TrustDecision` reads, with the types it needs. */
function looksLikeDecision(result: DecisionResult): boolean {
  return (
    typeof result === 'object' &&
    result !== null &&
    ACTIONS.has(result.decision?.recommended_action) &&
    Array.isArray(result.decision?.reason_codes) &&
    typeof result.uncertainty?.requires_human_review === 'boolean' &&
    typeof result.validity?.valid_until === 'string' &&
    typeof result.validity?.ttl_seconds === 'number'
  );
}
