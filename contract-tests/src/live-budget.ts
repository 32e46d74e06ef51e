/**
 * What one live run may spend per service, enforced in the one fetch every request of the run goes through
 * (client calls and raw requests alike):
 *
 * - store: a shared limiter inside the store's limits (CONTRACT_STORE_RATE_LIMIT, default `20/s,800/min`,
 *   applied with a margin: 2 a second and 80 a minute below, which leaves room for the tool server's paced calls
 *   of `mcp.contract.test.ts`, one a second; requests evenly spaced), and a 429 answered by
 *   waiting its Retry-After (counted, and retried at most 3 times);
 * - trust: one call at a time (the service answers overlapping calls of one key with 409) and at most
 *   CONTRACT_TRUST_BUDGET scans a run (default 3: a free key has 150 a month);
 * - every service: requests and 429s counted for the report, and mock-only headers refused before sending.
 */
import { RateLimiter } from '@agent-apis/core';
import { MOCK_ONLY_HEADERS } from './stand-ins/server.ts';

export interface BudgetFigures {
  requests: number;
  tooManyRequests: number;
  /** Trust only: scans spent and allowed. */
  scans?: number;
  scanBudget?: number;
  /** Store only: the limits the run kept to. */
  rateLimit?: string;
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

  constructor(service: string, env: Record<string, string | undefined> = process.env) {
    if (service === 'store') {
      const text = env.CONTRACT_STORE_RATE_LIMIT ?? '20/s,800/min';
      const { perSecond, perMinute } = parseRateLimit(text);
      this.figures.rateLimit = text;
      const rate = Math.max(1, perSecond - 2);
      this.#limiter = new RateLimiter({
        windows: [
          // Evenly spaced, so uneven network delays cannot bunch a second's requests into the server's window.
          { limit: 1, windowMs: Math.ceil(1_000 / rate) },
          { limit: rate, windowMs: 1_000 },
          { limit: Math.max(1, perMinute - 80), windowMs: 60_000 },
        ],
      });
    }
    this.#serial = service === 'trust';
    if (service === 'trust') {
      this.figures.scans = 0;
      const budget = Number(env.CONTRACT_TRUST_BUDGET ?? 3);
      if (!Number.isInteger(budget) || budget < 0) {
        // A budget that does not parse must not lift the limit (NaN compares false with everything).
        throw new Error(
          `CONTRACT_TRUST_BUDGET must be a whole number of scans ≥ 0, got "${env.CONTRACT_TRUST_BUDGET}"`,
        );
      }
      this.figures.scanBudget = budget;
    }
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
      const seconds = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, Math.min(Number.isFinite(seconds) ? seconds : 1, 5) * 1_000));
    }
  }
}
