/**
 * Client-side rate limiting over several sliding windows, FIFO-fair, adaptable to what the server reports.
 */

import { onAbort } from '../call/abort.js';
import { DEFAULT_RETRY_POLICY } from '../call/retry.js';
import { retryAfterMs } from '../call/retry-after.js';
import { sleep as defaultSleep, type Sleep } from '../call/timers.js';
import type { CreateFetchOptions } from '../call/transport.js';
import { fingerprint } from './fingerprint.js';

/** The keying helper of {@link sharedRateLimiter}'s callers, so a service's limiter module needs this entry only. */
export { fingerprint };

/** Longest pause a limiter takes from a server (a reset or a `Retry-After`): 24 h. */
export const MAX_PAUSE_MS = 24 * 60 * 60 * 1000;

/** At most `limit` requests in any `windowMs` interval. */
export interface RateLimitWindow {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
}

/** What a server reported about its limit. */
export interface RateLimitUpdate {
  /** Requests still allowed in the current window. */
  remaining?: number;
  /** The window's request limit. */
  limit?: number;
  /** Length of the window the report is about. */
  windowMs?: number;
  /** When the server's window resets (epoch ms); default: one window from now. */
  resetAt?: number;
}

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** The windows to respect, e.g. `[{ limit: 20, windowMs: 1_000 }, { limit: 800, windowMs: 60_000 }]`. */
  windows: readonly RateLimitWindow[];
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  /** Wait used while no window has room (default `setTimeout`-based). */
  sleep?: Sleep;
}

interface WindowState extends RateLimitWindow {
  /** The limit the limiter was created with: a server report may lower `limit` but never raise it above this. */
  configuredLimit: number;
  /** Grant times inside the current window, oldest first. */
  grants: number[];
  /** Budget reported by the server, valid until `resetAt`. */
  reported?: { remaining: number; resetAt: number };
}

interface Waiter {
  grant(): void;
  reject(reason: unknown): void;
  /** Set once the waiter's signal aborted: the queue skips it. */
  cancelled: boolean;
}

/**
 * A FIFO of callers waiting for a grant, abortable per caller. However many waiters share one signal, it gets one
 * abort listener (a signal shared by 100 calls gets one, not 100); an abort cancels its waiters in O(1) each (they
 * are skipped when reached, no queue search). `onIdle` runs when the last live waiter is cancelled.
 */
export class WaiterQueue {
  /** Waiters in arrival order from `#head` on; cancelled ones stay until reached or compacted. */
  #queue: Waiter[] = [];
  #head = 0;
  #live = 0;
  readonly #onIdle: () => void;

  constructor(onIdle: () => void = () => undefined) {
    this.#onIdle = onIdle;
  }

  /** Live (not cancelled, not granted) waiters. */
  get size(): number {
    return this.#live;
  }

  /** Resolves when {@link WaiterQueue.grantFirst} reaches this caller; rejects with the signal's reason on abort. */
  wait(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      let stopWatching: (() => void) | undefined;
      const waiter: Waiter = {
        cancelled: false,
        grant: () => {
          stopWatching?.();
          resolve();
        },
        reject,
      };
      // One listener per signal however many wait on it (`onAbort`); a granted waiter stops watching.
      if (signal) stopWatching = this.#watch(signal, waiter);
      this.#queue.push(waiter);
      this.#live++;
    });
  }

  /** Grants the longest-waiting live caller; false when none waits. */
  grantFirst(): boolean {
    while (this.#head < this.#queue.length) {
      const waiter = this.#queue[this.#head++] as Waiter;
      if (waiter.cancelled) continue;
      this.#live--;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      waiter.grant();
      return true;
    }
    this.#queue = [];
    this.#head = 0;
    return false;
  }

  #watch(signal: AbortSignal, waiter: Waiter): () => void {
    return onAbort(signal, () => {
      waiter.cancelled = true;
      waiter.reject(signal.reason);
      this.#cancelled(1);
    });
  }

  #cancelled(count: number): void {
    this.#live -= count;
    if (this.#live === 0) {
      this.#queue = [];
      this.#head = 0;
      this.#onIdle();
    } else if (this.#queue.length - this.#head > 2 * this.#live + 64) {
      this.#queue = this.#queue.slice(this.#head).filter((waiter) => !waiter.cancelled);
      this.#head = 0;
    }
  }
}

/** Something `rateLimitHooks` can drive: a local {@link RateLimiter} or a limiter shared through a store. */
export interface RateLimitGate {
  /** Resolves when one more request may go; rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Adopts what a server reported about a window. */
  update(report: RateLimitUpdate): void;
  /** Holds every acquirer for `ms` from now. */
  penalize(ms: number): void;
}

/**
 * Grants requests in arrival order so that no window is ever exceeded. One internal loop serves the queue, so
 * concurrent `acquire` calls cannot overshoot a window.
 */
export class RateLimiter implements RateLimitGate {
  readonly #windows: WindowState[];
  // Nobody left waiting: stop the serving loop's sleep so it does not keep the process alive.
  readonly #queue = new WaiterQueue(() => this.#idle?.abort());
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #pausedUntil = 0;
  #serving = false;
  #idle: AbortController | undefined;

  /** A limiter with empty windows; throws a TypeError for an empty or invalid window list. */
  constructor(options: RateLimiterOptions) {
    if (options.windows.length === 0) throw new TypeError('RateLimiter needs at least one window');
    for (const { limit, windowMs } of options.windows) {
      if (!Number.isInteger(limit) || limit < 1 || !(windowMs > 0)) {
        throw new TypeError(`Invalid rate limit window: ${limit} per ${windowMs} ms`);
      }
    }
    this.#windows = options.windows.map(({ limit, windowMs }) => ({
      limit,
      windowMs,
      configuredLimit: limit,
      grants: [],
    }));
    this.#now = options.now ?? (() => Date.now());
    this.#sleep = options.sleep ?? defaultSleep;
  }

  /** Number of callers waiting in `acquire`. */
  get pending(): number {
    return this.#queue.size;
  }

  /**
   * Resolves once every window has room for one more request; rejects with the signal's reason on abort. However
   * many calls wait on one signal, it gets one abort listener, and aborting any number of waiters is cheap.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const granted = this.#queue.wait(signal);
    void this.#serve();
    return granted;
  }

  /**
   * Adopts a server report. It applies to the window with the same `windowMs`, else the one with the same
   * `limit`, else the longest window. `remaining` caps the grants until `resetAt`; `limit` becomes the window's
   * limit, though never above the configured one (a server may tighten the budget, not loosen it).
   */
  update(report: RateLimitUpdate): void {
    const window = this.#windowFor(report);
    if (report.limit !== undefined && Number.isInteger(report.limit) && report.limit > 0) {
      window.limit = Math.min(report.limit, window.configuredLimit);
    }
    if (report.remaining !== undefined && report.remaining >= 0) {
      // A reset is never taken further than 24 h away (nor an unreadable one at its word).
      const latest = this.#now() + MAX_PAUSE_MS;
      const resetAt =
        report.resetAt !== undefined && report.resetAt >= 0 ? Math.min(report.resetAt, latest) : undefined;
      window.reported = { remaining: report.remaining, resetAt: resetAt ?? this.#now() + window.windowMs };
    }
  }

  /** Holds every acquirer for `ms` from now (e.g. after a 429 with Retry-After), at most 24 h. */
  penalize(ms: number): void {
    if (!(ms > 0)) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + Math.min(ms, MAX_PAUSE_MS));
  }

  #windowFor(report: RateLimitUpdate): WindowState {
    const longest = this.#windows.reduce((a, b) => (b.windowMs > a.windowMs ? b : a));
    return (
      this.#windows.find((window) => window.windowMs === report.windowMs) ??
      this.#windows.find((window) => window.limit === report.limit) ??
      longest
    );
  }

  async #serve(): Promise<void> {
    if (this.#serving) return;
    this.#serving = true;
    try {
      while (this.#queue.size > 0) {
        const waitMs = this.#waitMs(this.#now());
        if (waitMs > 0) {
          this.#idle = new AbortController();
          const slept = await this.#sleep(waitMs, this.#idle.signal).then(
            () => true,
            () => false,
          );
          if (!slept && this.#queue.size === 0) break;
          continue;
        }
        this.#record(this.#now());
        this.#queue.grantFirst();
      }
    } finally {
      this.#serving = false;
    }
  }

  /** How long until one more request fits in every window (0 when it fits now). */
  #waitMs(now: number): number {
    let waitMs = Math.max(0, this.#pausedUntil - now);
    for (const window of this.#windows) {
      while (window.grants.length > 0 && (window.grants[0] ?? 0) <= now - window.windowMs) window.grants.shift();
      const overflow = window.grants.length - window.limit;
      if (overflow >= 0) waitMs = Math.max(waitMs, (window.grants[overflow] ?? now) + window.windowMs - now);
      if (window.reported && now >= window.reported.resetAt) window.reported = undefined;
      if (window.reported && window.reported.remaining <= 0) waitMs = Math.max(waitMs, window.reported.resetAt - now);
    }
    return waitMs;
  }

  #record(now: number): void {
    for (const window of this.#windows) {
      window.grants.push(now);
      if (window.reported) window.reported.remaining -= 1;
    }
  }
}

const sharedLimiters = new Map<string, RateLimiter>();

/**
 * One limiter per key across all clients of the process, so clients with the same credentials share a budget.
 * The key is hashed before it is stored ({@link fingerprint}); still, prefer passing an already hashed key.
 */
export function sharedRateLimiter(key: string, create: () => RateLimiter): RateLimiter {
  const hashedKey = fingerprint(key);
  let limiter = sharedLimiters.get(hashedKey);
  if (!limiter) {
    limiter = create();
    sharedLimiters.set(hashedKey, limiter);
  }
  return limiter;
}

/** Forgets every shared limiter (for tests). */
export function resetSharedRateLimiters(): void {
  sharedLimiters.clear();
}

/** A Unix-seconds reset value is above this; smaller values are delta seconds. */
const EPOCH_SECONDS_THRESHOLD = 1_000_000_000;

/**
 * Reads the common rate-limit headers (`x-ratelimit-*` or `ratelimit-*`: `remaining`, `limit`, `reset` as delta
 * or Unix seconds). Undefined when the response carries no `remaining` header.
 */
export function readRateLimitHeaders(headers: Headers, now: number = Date.now()): RateLimitUpdate | undefined {
  const read = (name: string) => {
    const value = headers.get(`x-ratelimit-${name}`) ?? headers.get(`ratelimit-${name}`);
    const number = value === null ? Number.NaN : Number(value);
    return Number.isFinite(number) && number >= 0 ? number : undefined;
  };
  const remaining = read('remaining');
  if (remaining === undefined) return undefined;
  const reset = read('reset');
  const resetAt = reset === undefined ? undefined : reset > EPOCH_SECONDS_THRESHOLD ? reset * 1000 : now + reset * 1000;
  return { remaining, limit: read('limit'), resetAt };
}

/** Pause applied after a 429 that does not say how long to wait. */
const DEFAULT_429_PAUSE_MS = 1_000;

/** Reads what a response's headers report about rate limits: nothing, one window, or several. */
export type RateLimitReader = (headers: Headers) => RateLimitUpdate | readonly RateLimitUpdate[] | undefined;

/**
 * `createFetch` hooks that acquire from `limiter` before every attempt, feed it every window update
 * `readHeaders` finds after every response, and pause it after a 429 (for the Retry-After, capped at 60 s).
 */
export function rateLimitHooks(
  limiter: RateLimitGate,
  readHeaders: RateLimitReader = readRateLimitHeaders,
): Required<Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse'>> {
  return {
    beforeRequest: (_request, context) => limiter.acquire(context.signal),
    afterResponse: (response) => {
      for (const report of [readHeaders(response.headers) ?? []].flat()) limiter.update(report);
      if (response.status === 429) {
        // Above the cap the call fails fast (see decideRetry); pausing every client sharing the limiter for
        // that long would freeze them instead.
        const pause = retryAfterMs(response.headers) ?? DEFAULT_429_PAUSE_MS;
        if (pause <= DEFAULT_RETRY_POLICY.maxRetryAfterMs) limiter.penalize(pause);
      }
    },
  };
}
