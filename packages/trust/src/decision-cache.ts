/**
 * Decisions are deterministic within their validity window, so asking again inside it only spends quota.
 * This cache keeps each decision until the window ends and lets concurrent identical requests share one call.
 */
import { ConfigurationError } from '@agent-apis/core';
import type { TrustDecision } from './decision.js';

/** Entries kept unless configured otherwise. */
export const DEFAULT_DECISION_CACHE_ENTRIES = 1_000;

/** Options of {@link DecisionCache}. */
export interface DecisionCacheOptions<T = TrustDecision> {
  /**
   * Most decisions kept; the least recently used one goes first (default 1 000). A value that is no whole number
   * ≥ 1 is a `ConfigurationError` naming `TrustClient cache.maxEntries`, the option it comes from.
   */
  maxEntries?: number | undefined;
  /** Clock in ms (default `Date.now`). */
  now?: (() => number) | undefined;
  /** The decision a stored value holds, for its expiry (default: the value is the decision). */
  decisionOf?: ((value: T) => TrustDecision) | undefined;
}

interface CachedDecision<T> {
  decision: T;
  expiresAt: number;
}

/**
 * An in-memory, bounded LRU of decisions. A decision expires at `validity.valid_until` or `ttl_seconds` after it
 * arrived, whichever comes first, so a skewed server clock cannot stretch it. Failures are never stored.
 */
export class DecisionCache<T = TrustDecision> {
  readonly #entries = new Map<string, CachedDecision<T>>();
  readonly #inFlight = new Map<string, Promise<T>>();
  readonly #maxEntries: number;
  readonly #decisionOf: (value: T) => TrustDecision;
  readonly #now: () => number;

  constructor(options: DecisionCacheOptions<T> = {}) {
    this.#decisionOf = options.decisionOf ?? ((value) => value as unknown as TrustDecision);
    const maxEntries = options.maxEntries ?? DEFAULT_DECISION_CACHE_ENTRIES;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      const shown = typeof maxEntries === 'string' ? JSON.stringify(maxEntries) : String(maxEntries);
      throw new ConfigurationError(`TrustClient cache.maxEntries must be a whole number ≥ 1, got ${shown}`);
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Decisions currently stored (expired ones included until they are looked up or evicted). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The stored decision for `key` while it is valid; otherwise the call in flight for `key`, through `join` when
   * given (which bounds this caller's wait for a call it did not start); otherwise a new `load()`.
   */
  get(key: string, load: () => Promise<T>, join?: (pending: Promise<T>) => Promise<T>): Promise<T> {
    const cached = this.#fresh(key);
    if (cached) return Promise.resolve(cached);
    const pending = this.#inFlight.get(key);
    if (pending) return join ? join(pending) : pending;
    const call = this.#loadAndStore(key, load);
    this.#inFlight.set(key, call);
    return call;
  }

  #fresh(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) return undefined;
    this.#entries.set(key, entry);
    return entry.decision;
  }

  async #loadAndStore(key: string, load: () => Promise<T>): Promise<T> {
    try {
      const decision = await load();
      const expiresAt = expiryOf(this.#decisionOf(decision), this.#now());
      if (expiresAt > this.#now()) this.#store(key, { decision, expiresAt });
      return decision;
    } finally {
      this.#inFlight.delete(key);
    }
  }

  #store(key: string, entry: CachedDecision<T>): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}

/** The earlier of `valid_until` and arrival + `ttl_seconds`; -Infinity when neither is usable. */
export function expiryOf(decision: TrustDecision, receivedAt: number): number {
  const { valid_until, ttl_seconds } = decision.result.validity;
  const candidates = [Date.parse(valid_until), receivedAt + ttl_seconds * 1_000].filter(Number.isFinite);
  return candidates.length > 0 ? Math.min(...candidates) : Number.NEGATIVE_INFINITY;
}
