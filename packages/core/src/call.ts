/**
 * `@agent-apis/core/call`: the call path and what the sibling packages load lazily after it, never at import: the
 * transport, the one bounded reader of bodies, the building of errors from failed answers, redaction, the logger, the
 * timers, the rate limiter a service builds at its first call, and the Redis helpers of the services' shared tiers
 * (health and deadlines, values signed or sealed and read size-bounded; Redis is not a trusted party).
 */

export { type BoundedBytes, boundedBytes, boundedResponse, readBoundedBody } from './internal/call/body-reader.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './internal/call/env.js';
export {
  apiErrorFromResponse,
  connectionError,
  createRequestContext,
  rateLimitBanError,
  timeoutError,
} from './internal/call/error-response.js';
export {
  findViolation,
  findViolations,
  type JsonSchema,
  type JsonType,
  patternRisk,
  unsupportedKeywords,
  VALUE_KEYWORDS,
  type Violation,
} from './internal/call/json-schema.js';
export { createLogger, parseLogLevel } from './internal/call/logger.js';
export { isCredentialQueryParam, redactValue } from './internal/call/redact.js';
export { retryAfterMs } from './internal/call/retry-after.js';
export { type Sleep, sleep, startDeadline, timerDelay } from './internal/call/timers.js';
export { type CreateFetchOptions, createTransport } from './internal/call/transport.js';
export { fingerprint } from './internal/fleet/fingerprint.js';
export {
  RateLimiter,
  type RateLimitGate,
  rateLimitHooks,
  resetSharedRateLimiters,
  sharedRateLimiter,
  WaiterQueue,
} from './internal/fleet/rate-limiter.js';
export { RedisHealth, sha256Hex, withDeadline } from './internal/fleet/redis.js';
export {
  getBounded,
  keyedName,
  openValue,
  runScript,
  sealValue,
  signValue,
  verifyValue,
} from './internal/fleet/redis-values.js';
