/**
 * What one live run may spend per service, as the service's profile says (`BudgetProfile`), enforced in the one
 * fetch every request of the run goes through (client calls and raw requests alike):
 *
 * - `rateLimit`: a shared limiter inside the service's limits (e.g. the store's `CONTRACT_STORE_RATE_LIMIT`,
 *   default `20/s,800/min`), requests evenly spaced, with a margin: a fifth below the per-second limit (16 of 20:
 *   network and event-loop delays shift arrivals, so evenly spaced sends can still reach the server's one-second
 *   window bunched) and 80 a minute below, which also leaves room for the tool server's paced calls, one a second;
 * - a 429 answered by waiting its `Retry-After` (seconds or an HTTP date), counted and retried at most 3 times.
 *   A wait longer than CONTRACT_MAX_RETRY_AFTER seconds (default 120) is not waited out: the 429 reaches the
 *   check, which reports it inconclusive;
 * - `serial`: one call at a time (a service that answers overlapping calls of one key with 409);
 * - `quota`: at most that many metered units (scans) a run, reserved before anything runs;
 * - every service: requests and 429s counted for the report, and mock-only headers refused before sending.
 */
import { RateLimiter, retryAfterMs } from '@agent-apis/core';
import type { BudgetProfile } from './profile.ts';
import { MOCK_ONLY_HEADERS } from './stand-ins/server.ts';

/** The longest `Retry-After` a live run waits out, in seconds, unless CONTRACT_MAX_RETRY_AFTER says otherwise. */
export const DEFAULT_MAX_RETRY_AFTER_S = 120;

export interface BudgetFigures {
  requests: number;
  tooManyRequests: number;
  /** Services with a quota: units (scans) spent and allowed. */
  scans?: number;
  scanBudget?: number;
  /** Services with a rate limit: the limits the run kept to. */
  rateLimit?: string;
  /** 429s whose Retry-After exceeded the cap, handed to the check instead of waited out. */
  notWaited?: number;
}

/** `20/s,800/min` → windows. */
export function parseRateLimit(text: string): { perSecond: number; perMinute: number } {
  const perSecond = Number(/(\d+)\s*\/\s*s\b/.exec(text)?.[1] ?? 20);
  const perMinute = Number(/(\d+)\s*\/\s*min\b/.exec(text)?.[1] ?? 800);
  return { perSecond, perMinute };
}

const MAX_429_RETRIES = 3;

export class LiveBudget {
  readonly figures: BudgetFigures = { requests: 0, tooManyRequests: 0 };
  readonly #limiter?: RateLimiter;
  readonly #serial: boolean;
  #queue: Promise<unknown> = Promise.resolve();
  #reserved = 0;

  readonly #maxWaitMs: number;

  constructor(profile: BudgetProfile, env: Record<string, string | undefined> = process.env) {
    if (profile.rateLimit) {
      const text = env[profile.rateLimit.env] ?? profile.rateLimit.default;
      const { perSecond, perMinute } = parseRateLimit(text);
      this.figures.rateLimit = text;
      const rate = Math.max(1, Math.min(perSecond - 2, Math.floor(perSecond * 0.8)));
      this.#limiter = new RateLimiter({
        windows: [
          // Evenly spaced, so uneven network delays cannot bunch a second's requests into the server's window.
          { limit: 1, windowMs: Math.ceil(1_000 / rate) },
          { limit: rate, windowMs: 1_000 },
          { limit: Math.max(1, perMinute - 80), windowMs: 60_000 },
        ],
      });
    }
    this.#serial = profile.serial === true;
    if (profile.quota) {
      this.figures.scans = 0;
      const raw = env[profile.quota.env];
      const budget = Number(raw ?? profile.quota.default);
      if (!Number.isInteger(budget) || budget < 0) {
        // A budget that does not parse must not lift the limit (NaN compares false with everything).
        throw new Error(`${profile.quota.env} must be a whole number of ${profile.quota.unit} ≥ 0, got "${raw}"`);
      }
      this.figures.scanBudget = budget;
    }
    const cap = Number(env.CONTRACT_MAX_RETRY_AFTER ?? DEFAULT_MAX_RETRY_AFTER_S);
    if (!Number.isFinite(cap) || cap < 0) {
      throw new Error(
        `CONTRACT_MAX_RETRY_AFTER must be a number of seconds ≥ 0, got "${env.CONTRACT_MAX_RETRY_AFTER}"`,
      );
    }
    this.#maxWaitMs = cap * 1_000;
  }

  /** Claims `count` scans of the run's budget while planning; false (nothing claimed) when they do not fit. */
  reserveScans(count: number): boolean {
    if (this.figures.scanBudget === undefined) return true;
    if (this.#reserved + count > this.figures.scanBudget) return false;
    this.#reserved += count;
    return true;
  }

  /** Books scans a successful call spent. */
  spendScans(count: number): void {
    if (this.figures.scans !== undefined) this.figures.scans += count;
  }

  /** The fetch of every request of the run. */
  readonly fetch: typeof globalThis.fetch = (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const name of MOCK_ONLY_HEADERS) {
      if (headers.has(name)) return Promise.reject(new Error(`mock-only header ${name} must not reach a live service`));
    }
    const send = () => this.#send(input, init);
    if (!this.#serial) return send();
    const result = this.#queue.then(send, send);
    this.#queue = result.catch(() => undefined);
    return result;
  };

  async #send(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      await this.#limiter?.acquire(init?.signal ?? undefined);
      this.figures.requests++;
      const request = input instanceof Request ? input.clone() : input;
      const response = await globalThis.fetch(request, init);
      if (response.status !== 429 || attempt >= MAX_429_RETRIES) return response;
      this.figures.tooManyRequests++;
      // Retry-After as the server says (seconds or an HTTP date), 1 s when it says nothing; never past the cap.
      const waitMs = retryAfterMs(response.headers) ?? 1_000;
      if (waitMs > this.#maxWaitMs) {
        this.figures.notWaited = (this.figures.notWaited ?? 0) + 1;
        return response;
      }
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
