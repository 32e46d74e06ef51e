/**
 * Decisions shared by a fleet through Redis: one scan per target and context per validity window, whichever
 * process asks. When several ask at the same moment, one takes a short lock and asks the service; the others
 * wait for its answer, backing off, never longer than the call's timeout. Redis is not trusted: entries are sealed
 * with AES-256-GCM under a key derived from the API key (so a Redis reader sees neither target, action nor scores,
 * and an entry written by anyone without the key, or moved to another key, never opens), read only up to 64 KiB
 * (checked in Redis before anything is sent), and re-capped to the decision's own validity; a lock with no expiry,
 * or one longer than any holder sets, is stale and taken over. Any Redis fault falls back to the in-process cache:
 * a Redis error can cost a scan, never change a decision.
 */
import type { Logger, RedisClientLike } from '@agent-apis/core';
import { APIConnectionTimeoutError } from '@agent-apis/core';
import {
  getBounded,
  keyedName,
  openValue,
  RedisHealth,
  runScript,
  sealValue,
  withDeadline,
} from '@agent-apis/core/call';
import { decideTimeoutError } from './decide-timeout.js';
import { TrustDecision } from './decision.js';
import { expiryOf } from './decision-cache.js';
import type { DecisionResult } from './gen/types.gen.js';

// The client builds the warning logger of a shared cache only once this module is loaded.
export { createLogger, parseLogLevel } from '@agent-apis/core/call';

/** How long a lock on one decision is held before it must be renewed (the holder renews it while it waits). */
const LOCK_MS = 5_000;
/** First and longest pause between two looks for the holder's answer (the pause doubles, with jitter). */
const FIRST_BACKOFF_MS = 25;
const MAX_BACKOFF_MS = 1_000;
/** Longest a process waits for another's answer when the call has no timeout of its own. */
const MAX_WAIT_MS = 60_000;
/** Largest entry read back: a decision is a few KiB. */
const MAX_ENTRY_BYTES = 64 * 1024;
/** What entries are sealed for (the API key seals nothing else in Redis). */
const PURPOSE = 'trust-decision';

/**
 * Takes the lock (1), or tells how long the holder keeps it (0 and its remaining ms). A lock with no expiry or one
 * longer than any holder sets was not written by a holder: it is taken over.
 */
const TAKE_LOCK = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 or ttl > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {1, 0}
end
return {0, ttl}`;

/** Lets go of the lock when it is still ours (one round trip). */
const RELEASE_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const ACTIONS = new Set(['proceed', 'proceed_with_caution', 'sandbox', 'escalate_to_human', 'deny']);

/** A decision and when it stops being valid (epoch ms). */
export interface CachedDecision {
  decision: TrustDecision;
  expiresAt: number;
}

/** Options of {@link SharedDecisions}. */
export interface SharedDecisionsOptions {
  redis: RedisClientLike;
  /** The API key: the secret every entry's key name and sealing key are derived from. */
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
   * processes wait for one `load()`, each at most `waitMs` (the call's timeout): past it the call fails with an
   * `APIConnectionTimeoutError`. Without Redis it is `load()` alone.
   */
  async get(
    cacheKey: string,
    load: () => Promise<TrustDecision>,
    waitMs: number | undefined = MAX_WAIT_MS,
  ): Promise<CachedDecision> {
    const fresh = async (): Promise<CachedDecision> => {
      const decision = await load();
      return { decision, expiresAt: expiryOf(decision, this.#now()) };
    };
    if (this.#health.down) return fresh();
    const { redis, apiKey, baseUrl } = this.#options;
    let entryKey: string;
    try {
      entryKey = `agent-apis:trust-decision:v2:${await keyedName(apiKey, PURPOSE, `${baseUrl}\n${cacheKey}`)}`;
    } catch {
      return fresh();
    }
    const lockKey = `${entryKey}:lock`;
    const token = `${this.#now()}-${Math.random().toString(36).slice(2)}`;
    const bound =
      waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs) ? Math.min(waitMs, MAX_WAIT_MS) : MAX_WAIT_MS;
    const waitUntil = this.#now() + bound;
    try {
      for (let round = 0; ; round++) {
        const cached = await this.#read(entryKey);
        if (cached) return cached;
        const [locked, holderMs] = (await withDeadline(
          runScript(redis, TAKE_LOCK, [lockKey], [token, String(LOCK_MS)]),
        )) as [number, number];
        if (locked === 1) {
          // The previous holder may have written its answer and let go between our read and our lock.
          const written = await this.#read(entryKey);
          if (!written) break;
          await this.#release(lockKey, token);
          return written;
        }
        const left = waitUntil - this.#now();
        if (left <= 0) {
          this.#health.succeeded();
          throw this.#timedOut(bound);
        }
        // Backing off: 25 ms, 50, 100 ... up to a second (half of it random), never past the holder's lock or the call.
        const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** Math.min(round, 10), MAX_BACKOFF_MS);
        const pause = Math.min(backoff / 2 + (Math.random() * backoff) / 2, Math.max(1, holderMs), left);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      this.#health.succeeded();
    } catch (error) {
      if (error instanceof APIConnectionTimeoutError) throw error;
      this.#health.failed(error);
      return fresh();
    }
    // This process holds the lock: ask, share the answer, let go.
    const renew = setInterval(() => {
      withDeadline(redis.set(lockKey, token, { XX: true, PX: LOCK_MS })).catch(() => undefined);
    }, LOCK_MS / 2);
    try {
      const answer = await fresh();
      await this.#write(entryKey, answer).catch((error: unknown) => this.#health.failed(error));
      return answer;
    } finally {
      clearInterval(renew);
      await this.#release(lockKey, token);
    }
  }

  #timedOut(waitedMs: number): APIConnectionTimeoutError {
    return decideTimeoutError(this.#options.baseUrl, waitedMs);
  }

  /**
   * The entry at `entryKey` when it opens with our key (sealed for this very key) and is still valid, its expiry
   * re-capped to the decision's own window as this process reads it; undefined otherwise.
   */
  async #read(entryKey: string): Promise<CachedDecision | undefined> {
    const raw = await withDeadline(getBounded(this.#options.redis, entryKey, MAX_ENTRY_BYTES));
    if (raw === null) return undefined;
    try {
      const opened = await openValue(this.#options.apiKey, PURPOSE, entryKey, raw);
      if (opened === undefined) return undefined;
      const entry = JSON.parse(opened) as { expiresAt?: unknown; result?: unknown };
      if (typeof entry.expiresAt !== 'number') return undefined;
      const result = entry.result as DecisionResult;
      if (!looksLikeDecision(result)) return undefined;
      const now = this.#now();
      const decision = new TrustDecision(result);
      const expiresAt = Math.min(entry.expiresAt, expiryOf(decision, now));
      if (!(expiresAt > now)) return undefined;
      return { decision, expiresAt };
    } catch {
      return undefined;
    }
  }

  async #write(entryKey: string, { decision, expiresAt }: CachedDecision): Promise<void> {
    const ttl = Math.floor(expiresAt - this.#now());
    if (!(ttl > 0)) return;
    const value = JSON.stringify({ expiresAt, result: decision.result });
    const sealed = await sealValue(this.#options.apiKey, PURPOSE, entryKey, value);
    if (sealed.length > MAX_ENTRY_BYTES) return;
    await withDeadline(this.#options.redis.set(entryKey, sealed, { PX: ttl }));
  }

  async #release(lockKey: string, token: string): Promise<void> {
    try {
      await withDeadline(runScript(this.#options.redis, RELEASE_LOCK, [lockKey], [token]));
    } catch {
      // The lock expires on its own.
    }
  }
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
