/** The store client's `rateLimit` option and the store's documented limits (read by the in-process and fleet limiters). */
import type { RedisClientLike } from '@agent-apis/core';

/** The connected node-redis client (v5 or later) a fleet shares its budget through. */
export type FleetRedisClient = RedisClientLike;

/** Processes assumed in the fleet when Redis cannot be reached and `rateLimit.workers` is not given. */
export const DEFAULT_FLEET_WORKERS = 8;

/** The client's `rateLimit` option: requests allowed per second and per minute. */
export interface StoreRateLimitOptions {
  /** Requests per second (default 20, the store's limit). */
  perSecond?: number | undefined;
  /** Requests per minute (default 800, the store's limit). */
  perMinute?: number | undefined;
  /**
   * A connected node-redis client (`redis` v5 or later): the budget is then shared by every client of the same
   * store and login in any process or machine using this Redis (see "Running a fleet" in the README).
   */
  redis?: FleetRedisClient | undefined;
  /**
   * The Redis key prefix of the shared budget (default: `agent-apis:store-rate-limit:` + the base URL + a SHA-256
   * of the login, or of the access token; never a credential). Clients with the same key share one budget.
   */
  key?: string | undefined;
  /**
   * Processes to assume while Redis is unavailable: each keeps to `1/workers` of every window until Redis
   * answers again (default 8). Never unlimited.
   */
  workers?: number | undefined;
}

/** The store's documented limits. */
export const DEFAULT_RATE_LIMIT = { perSecond: 20, perMinute: 800 } as const satisfies Required<
  Pick<StoreRateLimitOptions, 'perSecond' | 'perMinute'>
>;

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60_000;

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

/**
 * Longest hold of the store's calls: a ban's reset (and any pause the fleet shares) further away than 24 h is cut to
 * 24 h, with a warning. A reset years away is a broken or hostile answer, and a ban ends within a day.
 */
export const MAX_HOLD_MS = 24 * 60 * 60 * 1000;

/** The header the store sends once it banned the credentials: when (UTC) the ban ends. */
export const BAN_RESET_HEADER = 'Jumpseller-BannedByRateLimit-Reset';
