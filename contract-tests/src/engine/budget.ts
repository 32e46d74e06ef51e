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
import { RateLimiter, retryAfterMs } from '@agent-apis/core/call';
import { MOCK_ONLY_HEADERS } from '@agent-apis/test-servers/stand-ins/server';
import type { BudgetFigures } from '../evidence/evidence.ts';
import { contractNumber, DEFAULTS, RANGES, rateLimitSetting } from '../settings.ts';
import type { BudgetProfile } from './profile.ts';

/** The longest `Retry-After` a live run waits out, in seconds, unless CONTRACT_MAX_RETRY_AFTER says otherwise. */
export const DEFAULT_MAX_RETRY_AFTER_S = DEFAULTS.CONTRACT_MAX_RETRY_AFTER;

/** How long one request may take once sent, answer included, unless CONTRACT_TIMEOUT says otherwise (seconds). */
export const DEFAULT_TIMEOUT_S = DEFAULTS.CONTRACT_TIMEOUT;

/**
 * A request the budget did not send: the service stopped the run with a 429 past its budget, or the caller gave
 * up while the request waited its turn. Its operation is "not run", never failed.
 */
export class NotSentError extends Error {
  override name = 'NotSentError';
}

/** What became of one request handed to the budget (filled in as it goes). */
export interface Dispatch {
  /** The request left for the service. */
  sent?: boolean;
  /** No complete answer within CONTRACT_TIMEOUT after it was sent. */
  timedOut?: boolean;
  /** The caller read the answer (set by the caller): a timeout after this is not a hang. */
  answered?: boolean;
}

/** `20/s,800/min` → windows (a part left out takes the store's documented value); anything else is refused. */
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
      const text = env[profile.rateLimit.env] || profile.rateLimit.default;
      const { perSecond, perMinute } = rateLimitSetting(profile.rateLimit.env, text);
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
      // A budget that does not parse or is out of range must not lift the limit: refused, naming the variable.
      const { env: name, unit } = profile.quota;
      this.figures.scanBudget = contractNumber(env, name, { ...RANGES[name], unit: `${unit}s` });
    }
    this.#maxWaitMs = contractNumber(env, 'CONTRACT_MAX_RETRY_AFTER') * 1_000;
    this.timeoutMs = contractNumber(env, 'CONTRACT_TIMEOUT') * 1_000;
  }

  /** How long one request may take once sent (CONTRACT_TIMEOUT). */
  readonly timeoutMs: number;

  /**
   * Set once the service answered 429 past what the run may wait (a `Retry-After` above CONTRACT_MAX_RETRY_AFTER,
   * or 429 to every retry): later requests are not sent, and their operations are "not run" for this reason.
   */
  stopped: string | undefined;

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
  readonly fetch: typeof globalThis.fetch = (input, init) => this.send(input, init, {});

  /** `fetch`, telling `dispatch` whether the request was sent and whether its answer timed out. */
  send(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1], dispatch: Dispatch): Promise<Response> {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const name of MOCK_ONLY_HEADERS) {
      if (headers.has(name)) return Promise.reject(new Error(`mock-only header ${name} must not reach a live service`));
    }
    const send = () => this.#send(input, init, dispatch);
    if (!this.#serial) return send();
    const result = this.#queue.then(send, send);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #send(
    input: Parameters<typeof fetch>[0],
    init: Parameters<typeof fetch>[1],
    dispatch: Dispatch,
  ): Promise<Response> {
    const callerSignal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    for (let attempt = 0; ; attempt++) {
      if (this.stopped) throw new NotSentError(`not sent: ${this.stopped}`);
      await this.#limiter?.acquire(callerSignal ?? undefined);
      if (this.stopped) throw new NotSentError(`not sent: ${this.stopped}`);
      if (callerSignal?.aborted) throw new NotSentError('not sent: the call gave up while it waited its turn');
      this.figures.requests++;
      dispatch.sent = true;
      const request = input instanceof Request ? input.clone() : input;
      // The timeout runs from sending until the whole answer is read (it also ends a body that stalls).
      const timeout = AbortSignal.timeout(this.timeoutMs);
      timeout.addEventListener('abort', () => {
        if (!dispatch.answered) dispatch.timedOut = true;
      });
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      const response = await globalThis.fetch(request, { ...init, signal });
      if (response.status !== 429) return response;
      this.figures.tooManyRequests++;
      // Retry-After as the server says (seconds or an HTTP date), 1 s when it says nothing; never past the cap.
      const waitMs = retryAfterMs(response.headers) ?? 1_000;
      if (waitMs > this.#maxWaitMs || attempt >= MAX_429_RETRIES) {
        this.figures.notWaited = (this.figures.notWaited ?? 0) + 1;
        this.stopped =
          waitMs > this.#maxWaitMs
            ? `the service answered 429 asking to wait ${Math.round(waitMs / 1000)} s, past CONTRACT_MAX_RETRY_AFTER=${this.#maxWaitMs / 1000} s`
            : `the service answered 429 ${attempt + 1} times in a row`;
        return response;
      }
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
