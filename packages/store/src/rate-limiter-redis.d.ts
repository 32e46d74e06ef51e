/** Types of rate-limiter-flexible's Redis limiter when imported from its own module (the package types its index). */
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  import type { RateLimiterRedis } from 'rate-limiter-flexible';

  const RateLimiterRedisClass: typeof RateLimiterRedis;
  export default RateLimiterRedisClass;
}
