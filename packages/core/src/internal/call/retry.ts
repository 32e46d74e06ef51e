/**
 * Retry rules: which failures are retried, and how long to wait before the next attempt.
 */

import { retryAfterMs } from './retry-after.js';

/** Retries after the first attempt unless configured otherwise. */
export const DEFAULT_MAX_RETRIES = 2;

/** Methods that may be sent twice without changing the outcome. POST and PATCH are never retried. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Response statuses worth another attempt. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504]);

/** Tunable limits of the retry schedule. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  maxRetries: number;
  /** Backoff before the first retry; doubled for each further retry (default 500 ms). */
  initialDelayMs: number;
  /** Upper bound of the computed backoff (default 8 s). */
  maxDelayMs: number;
  /** A server-requested wait longer than this is not waited out: the failure is surfaced at once (default 60 s). */
  maxRetryAfterMs: number;
}

/** The defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: DEFAULT_MAX_RETRIES,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Share of the backoff removed at random so that many clients do not retry in lockstep. */
const JITTER_RATIO = 0.25;

/** What went wrong in the attempt being judged. */
export type RetryTrigger =
  | { kind: 'response'; status: number; headers: Headers }
  | { kind: 'connection' }
  | { kind: 'timeout' };

/** Input of {@link decideRetry}. */
export interface RetryQuestion {
  /** HTTP method of the request. */
  method: string;
  /** Retries already made for this request (0 after the first attempt). */
  retriesSoFar: number;
  /** The failure of the last attempt. */
  trigger: RetryTrigger;
  /** Overrides of {@link DEFAULT_RETRY_POLICY}. */
  policy?: Partial<RetryPolicy>;
  /** Time left before the call's deadline, in ms (default: no deadline): a wait that would reach it is not taken. */
  remainingMs?: number;
  /** Clock used to interpret `Retry-After` dates (default `Date.now`). */
  now?: () => number;
  /** Source of jitter in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/** Outcome of {@link decideRetry}. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/** True for GET, HEAD, OPTIONS, PUT and DELETE. */
export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/**
 * Decides whether to retry and after how long. Non-idempotent methods are never retried, nor a timed-out attempt
 * (the timeout is the whole call's deadline); `x-should-retry` overrides the status rule; a server-requested wait
 * (`retry-after-ms`, `Retry-After`) is used as the delay unless it exceeds `maxRetryAfterMs`. A delay that would end
 * at or past the call's deadline (`remainingMs`) is never slept on: the failure is surfaced at once.
 */
export function decideRetry(question: RetryQuestion): RetryDecision {
  const policy = { ...DEFAULT_RETRY_POLICY, ...question.policy };
  const method = question.method.toUpperCase();
  if (!isIdempotentMethod(method)) return { retry: false, reason: `${method} is not idempotent` };
  if (question.retriesSoFar >= policy.maxRetries) {
    return { retry: false, reason: `gave up after ${question.retriesSoFar} retries` };
  }
  const { trigger } = question;
  if (trigger.kind === 'timeout') return { retry: false, reason: "the call's timeout passed" };
  const delay = (delayMs: number): RetryDecision =>
    delayMs < (question.remainingMs ?? Number.POSITIVE_INFINITY)
      ? { retry: true, delayMs }
      : { retry: false, reason: `a wait of ${delayMs} ms would end past the call's deadline` };
  const backoff = () => delay(backoffDelayMs(question.retriesSoFar, policy, question.random));
  if (trigger.kind !== 'response') return backoff();

  const serverVerdict = trigger.headers.get('x-should-retry')?.trim().toLowerCase();
  if (serverVerdict === 'false') return { retry: false, reason: 'server sent x-should-retry: false' };
  if (serverVerdict !== 'true' && !RETRYABLE_STATUSES.has(trigger.status)) {
    return { retry: false, reason: `status ${trigger.status} is not retryable` };
  }
  const requestedDelay = retryAfterMs(trigger.headers, question.now?.());
  if (requestedDelay === undefined) return backoff();
  if (requestedDelay > policy.maxRetryAfterMs) {
    return {
      retry: false,
      reason: `server asked to wait ${requestedDelay} ms, more than the ${policy.maxRetryAfterMs} ms cap`,
    };
  }
  return delay(requestedDelay);
}

/** Exponential backoff for the retry number `retriesSoFar` (0-based): initial × 2^n, capped, minus up to 25 % jitter. */
export function backoffDelayMs(
  retriesSoFar: number,
  policy: Pick<RetryPolicy, 'initialDelayMs' | 'maxDelayMs'> = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.initialDelayMs * 2 ** retriesSoFar, policy.maxDelayMs);
  return Math.round(exponential * (1 - JITTER_RATIO * random()));
}
