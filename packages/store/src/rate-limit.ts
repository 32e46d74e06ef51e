/**
 * The store's request budget (20 a second and 800 a minute per store), kept client-side so callers do not
 * meet 429 in normal use, and adapted to the `Jumpseller-*RateLimit-*` headers the store sends back.
 */
import {
  type CreateFetchOptions,
  fingerprint,
  RateLimitBanError,
  RateLimiter,
  type RateLimitUpdate,
  type RateLimitWindow,
  sharedRateLimiter,
} from '@agent-apis/core';

/** The client's `rateLimit` option: requests allowed per second and per minute. */
export interface StoreRateLimitOptions {
  /** Requests per second (default 20, the store's limit). */
  perSecond?: number | undefined;
  /** Requests per minute (default 800, the store's limit). */
  perMinute?: number | undefined;
}

/** The store's documented limits. */
export const DEFAULT_RATE_LIMIT = { perSecond: 20, perMinute: 800 } as const satisfies Required<StoreRateLimitOptions>;

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;

/** The rate-limit headers the store sends with every response, per window. */
export const RATE_LIMIT_HEADERS = {
  perSecond: {
    limit: 'Jumpseller-PerSecondRateLimit-Limit',
    remaining: 'Jumpseller-PerSecondRateLimit-Remaining',
    windowMs: SECOND_MS,
  },
  perMinute: {
    limit: 'Jumpseller-PerMinuteRateLimit-Limit',
    remaining: 'Jumpseller-PerMinuteRateLimit-Remaining',
    windowMs: MINUTE_MS,
  },
} as const;

/** The limiter windows for `options`: one of a second and one of a minute. */
export function rateLimitWindows(options: StoreRateLimitOptions = {}): RateLimitWindow[] {
  return [
    { limit: options.perSecond ?? DEFAULT_RATE_LIMIT.perSecond, windowMs: SECOND_MS },
    { limit: options.perMinute ?? DEFAULT_RATE_LIMIT.perMinute, windowMs: MINUTE_MS },
  ];
}

/**
 * The limiter of everyone calling `baseUrl` with these credentials in this process: clients built with the
 * same credentials share one budget. It is keyed by a fingerprint, never by the credentials themselves; the
 * first client to create it sets its windows.
 */
export function storeRateLimiter(
  baseUrl: string,
  identity: readonly string[],
  windows: readonly RateLimitWindow[],
): RateLimiter {
  return sharedRateLimiter(fingerprint('store', baseUrl, ...identity), () => new RateLimiter({ windows }));
}

function readCount(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Reads the store's rate-limit headers for `rateLimitHooks`: one update per window the response reports (the
 * limiter keeps a reported limit from exceeding the configured one).
 */
export function readStoreRateLimitHeaders(headers: Headers): RateLimitUpdate[] {
  return Object.values(RATE_LIMIT_HEADERS).flatMap(({ limit, remaining, windowMs }) => {
    const reportedRemaining = readCount(headers, remaining);
    return reportedRemaining === undefined
      ? []
      : [{ remaining: reportedRemaining, windowMs, limit: readCount(headers, limit) }];
  });
}

/** The header the store sends once it banned the credentials: when (UTC) the ban ends. */
export const BAN_RESET_HEADER = 'Jumpseller-BannedByRateLimit-Reset';

/** End of the current ban (ms since epoch) per base URL and credentials fingerprint, shared by all clients. */
const bans = new Map<string, number>();

/**
 * Hooks that stop calls while the store bans these credentials: a response carrying {@link BAN_RESET_HEADER}
 * ends the call at once with a {@link RateLimitBanError} (no retry; every request would extend the ban), and
 * until the reset time every call fails the same way before anything is sent. `limiter` hooks run inside.
 */
export function storeBanGuard(
  baseUrl: string,
  identity: readonly string[],
  limiter?: Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse'>,
  now: () => number = () => Date.now(),
): Required<Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse'>> {
  const key = fingerprint('store-ban', baseUrl.replace(/\/+$/, ''), ...identity);
  return {
    beforeRequest: async (request, context) => {
      const until = bans.get(key);
      if (until !== undefined && until > now()) throw new RateLimitBanError(new Date(until));
      await limiter?.beforeRequest?.(request, context);
    },
    afterResponse: async (response, request, context) => {
      await limiter?.afterResponse?.(response, request, context);
      const reset = response.headers.get(BAN_RESET_HEADER);
      if (reset === null) return;
      const parsed = Date.parse(reset);
      // An unreadable date still means a ban: hold calls for an hour rather than hammer the store.
      const until = Number.isNaN(parsed) ? now() + 3_600_000 : parsed;
      if (until <= now()) return;
      bans.set(key, until);
      await response.body?.cancel().catch(() => undefined);
      throw new RateLimitBanError(new Date(until));
    },
  };
}
