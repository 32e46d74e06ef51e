/**
 * Decisions are deterministic within their validity window, so asking again inside it only spends quota.
 * This cache keeps each decision until the window ends and lets concurrent identical requests share one call.
 */
import type { TrustDecision } from './decision.js';
import type { DecisionResult } from './gen/sdk/types.gen.js';

/** Entries kept unless configured otherwise. */
export const DEFAULT_DECISION_CACHE_ENTRIES = 1_000;

/** Options of {@link DecisionCache}. */
export interface DecisionCacheOptions {
  /** Most decisions kept; the least recently used one goes first (default 1 000). */
  maxEntries?: number;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
}

/** A decision and when it stops being valid (epoch ms). */
export interface CachedDecision {
  decision: TrustDecision;
  expiresAt: number;
}

/**
 * An in-memory, bounded LRU of decisions. A decision expires at `validity.valid_until` or `ttl_seconds` after it
 * arrived, whichever comes first, so a skewed server clock cannot stretch it. Failures are never stored.
 */
export class DecisionCache {
  readonly #entries = new Map<string, CachedDecision>();
  readonly #inFlight = new Map<string, Promise<TrustDecision>>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: DecisionCacheOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_DECISION_CACHE_ENTRIES;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be an integer ≥ 1, got ${maxEntries}`);
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Decisions currently stored (expired ones included until they are looked up or evicted). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The stored decision for `key` while it is valid; otherwise the call in flight for `key`, or a new `load()`.
   * `load` may say when its decision expires (a decision shared by another process arrived earlier than now).
   */
  get(key: string, load: () => Promise<TrustDecision | CachedDecision>): Promise<TrustDecision> {
    const cached = this.#fresh(key);
    if (cached) return Promise.resolve(cached);
    const pending = this.#inFlight.get(key);
    if (pending) return pending;
    const call = this.#loadAndStore(key, load);
    this.#inFlight.set(key, call);
    return call;
  }

  #fresh(key: string): TrustDecision | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) return undefined;
    this.#entries.set(key, entry);
    return entry.decision;
  }

  async #loadAndStore(key: string, load: () => Promise<TrustDecision | CachedDecision>): Promise<TrustDecision> {
    try {
      const loaded = await load();
      const { decision, expiresAt } =
        'expiresAt' in loaded ? loaded : { decision: loaded, expiresAt: expiryOf(loaded.result, this.#now()) };
      if (expiresAt > this.#now()) this.#store(key, { decision, expiresAt });
      return decision;
    } finally {
      this.#inFlight.delete(key);
    }
  }

  #store(key: string, entry: CachedDecision): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}

/** The earlier of `valid_until` and arrival + `ttl_seconds`; -Infinity when neither is usable. */
export function expiryOf(result: DecisionResult, receivedAt: number): number {
  const { valid_until, ttl_seconds } = result.validity;
  const candidates = [Date.parse(valid_until), receivedAt + ttl_seconds * 1_000].filter(Number.isFinite);
  return candidates.length > 0 ? Math.min(...candidates) : Number.NEGATIVE_INFINITY;
}
