/**
 * @agent-apis/core: the runtime shared by the @agent-apis clients. Internal; applications use the service packages.
 */
export {
  AgentApiError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createRequestContext,
  type ErrorResponse,
  errorClassForStatus,
  InternalServerError,
  NotFoundError,
  type OperationInfo,
  PermissionDeniedError,
  RateLimitError,
  type RequestContext,
  RequestValidationError,
  type RequestValidationProblem,
  UnprocessableEntityError,
} from './errors.js';
export {
  type AttemptContext,
  type CreateFetchOptions,
  createFetch,
  DEFAULT_TIMEOUT_MS,
  REQUEST_OPTION_HEADERS,
  type RequestOptions,
  requestOptionHeaders,
} from './fetch.js';
export { fingerprint } from './fingerprint.js';
export {
  CACHE_STATUS_HEADER,
  DEFAULT_CACHE_ENTRIES,
  HttpCache,
  type HttpCacheOptions,
  parseCacheControl,
} from './http-cache.js';
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
  type CallOptions,
  type OperationInput,
  type OperationShape,
  operationMatcher,
  type QueryConstraint,
  validateOperationInput,
} from './operations.js';
export {
  type CursorScheme,
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
  type RateLimitUpdate,
  type RateLimitWindow,
  rateLimitHooks,
  readRateLimitHeaders,
  resetSharedRateLimiters,
  sharedRateLimiter,
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
export {
  type ResponseIssue,
  ResponseValidationError,
  type SchemaLike,
  schemaResponseValidator,
} from './response-validation.js';
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
  retryAfterMs,
} from './retry.js';
export { raceWithSignal, type Sleep, sleep } from './timers.js';
export { VERSION } from './version.js';
