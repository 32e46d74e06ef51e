/**
 * `@agent-apis/core/fleet`: what the Redis tiers of the services (the store's shared rate budget, trust's shared
 * decision cache) build on, loaded only when a Redis client is configured: the Redis health tracker and command
 * deadline, and the values kept in Redis, signed or sealed and read size-bounded (Redis is not a trusted party).
 */

export { RedisUnavailableError } from './internal/call/request-errors.js';
export { fingerprint } from './internal/fleet/fingerprint.js';
export {
  hmacSha256Hex,
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_RETRY_MS,
  type RedisClientLike,
  RedisHealth,
  sha256Hex,
  withDeadline,
} from './internal/fleet/redis.js';
export {
  getBounded,
  keyedName,
  openValue,
  runScript,
  sealValue,
  signValue,
  verifyValue,
} from './internal/fleet/redis-values.js';
