/**
 * `@agent-apis/core/rate-limit`: the rate limiter a service builds at its first call (the store's budget of 20
 * requests a second and 800 a minute per store), shared by the clients of one process, and its transport hooks.
 * Its Redis tier, which spreads the budget over a fleet, is the `./fleet` entry, loaded only when configured. The
 * logger a limiter reports with comes with it, so a service's limiter loads this one entry of core's call path.
 */

export { fingerprint } from './internal/fleet/fingerprint.js';
export {
  MAX_PAUSE_MS,
  RateLimiter,
  type RateLimiterOptions,
  type RateLimitGate,
  type RateLimitReader,
  type RateLimitUpdate,
  type RateLimitWindow,
  rateLimitHooks,
  readRateLimitHeaders,
  resetSharedRateLimiters,
  sharedRateLimiter,
  WaiterQueue,
} from './internal/fleet/rate-limiter.js';
export { createLogger, parseLogLevel } from './logger.js';
