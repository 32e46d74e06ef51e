/**
 * @agent-apis/core: the runtime shared by the @agent-apis clients. Internal; applications use the service packages.
 */

export { onAbort, raceWithSignal } from './abort.js';
export { ApiClient, checkBaseUrl, type LazyTransportOptions, type ServiceClientConfig } from './api-client.js';
export { ApiPromise, mapApiPromise, type WithResponse } from './api-promise.js';
export { callHeaders, expandPath, serializeQuery } from './call-request.js';
export * from './client-errors.js';
export {
  type ClientOptions,
  clientFetchOptions,
  LOG_ENV_VAR,
  type OperationSchemas,
  type ServiceTransport,
  type ValidatorsModule,
} from './client-options.js';
export { readEnv } from './env.js';
export { apiErrorFromResponse, createRequestContext } from './error-response.js';
export {
  type ErrorResponse,
  errorClassForStatus,
  type MissingCredentials,
  type OperationInfo,
  type RequestContext,
  type RequestValidationProblem,
} from './errors.js';
export {
  type AttemptContext,
  type BufferedResponse,
  bufferedToResponse,
  type CreateFetchOptions,
  createTransport,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type RequestHead,
  type RetryEvent,
  type Transport,
  type TransportCall,
  type TransportHooks,
} from './fetch.js';
export type { HeadersInput } from './fetch-types.js';
export { fingerprint } from './fingerprint.js';
export {
  type CachePlan,
  type CacheRequest,
  DEFAULT_CACHE_BYTES,
  DEFAULT_CACHE_ENTRIES,
  DEFAULT_MAX_FRESHNESS_MS,
  HttpCache,
  type HttpCacheOptions,
} from './http-cache.js';
export { CACHE_STATUS_HEADER, parseCacheControl } from './http-cache-engine.js';
export { validateOperationInput } from './input-validation.js';
export {
  createLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  parseLogLevel,
  resolveLogLevel,
} from './logger.js';
export {
  type BoundOperation,
  type BoundOperations,
  bindOperations,
  type CallHeaders,
  type CallOptions,
  type HttpMethod,
  type Operation,
  type OperationCallOptions,
  type OperationClient,
  type OperationInput,
  type OperationOptions,
  type OperationShape,
  operationMatcher,
  type PageNumberListingOptions,
  pageNumberListing,
  type QueryConstraint,
  type RequestOptions,
  routeOf,
  sendOperation,
} from './operations.js';
export {
  type CursorScheme,
  type OffsetCursorOptions,
  type OffsetPage,
  offsetCursor,
  type PageNumberOptions,
  type PaginateOptions,
  type Paginator,
  pageNumberCursor,
  paginate,
  type ToArrayOptions,
} from './pagination.js';
export {
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
} from './rate-limit.js';
export {
  describeRequest,
  isCredentialHeader,
  isCredentialQueryParam,
  MIN_SECRET_LENGTH,
  REDACTED,
  type RedactValueOptions,
  type RequestDescription,
  redactError,
  redactHeaders,
  redactText,
  redactUrl,
  redactValue,
  secretsFromRequest,
} from './redact.js';
export { type RedirectHop, redirectHop } from './redirect.js';
export {
  assertRedisClient,
  hmacSha256Hex,
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_RETRY_MS,
  type RedisClientLike,
  RedisHealth,
  RedisUnavailableError,
  sha256Hex,
  withDeadline,
} from './redis.js';
export {
  getBounded,
  keyedName,
  openValue,
  runScript,
  sealValue,
  signValue,
  verifyValue,
} from './redis-values.js';
export type { SchemaLike } from './response-validation.js';
export {
  backoffDelayMs,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  IDEMPOTENT_METHODS,
  isIdempotentMethod,
  RETRYABLE_STATUSES,
  type RetryDecision,
  type RetryPolicy,
  type RetryQuestion,
  type RetryTrigger,
} from './retry.js';
export { retryAfterMs } from './retry-after.js';
export { schemaResponseValidator } from './schema-validation.js';
export { type Sleep, sleep, startDeadline, timerDelay } from './timers.js';
export { VERSION } from './version.js';
