/**
 * @agent-apis/core: the runtime the @agent-apis clients share, as their users meet it: the client and its options,
 * the operation row and the per-call options, `ApiPromise`, pagination, every error class, the logger, and the faces
 * of the HTTP cache and the rate limiter. Applications use the service packages, which re-export what they need.
 * The service packages take what they need before, at and after the first call from the `./client`, `./call`,
 * `./rate-limit` and `./fleet` entries (see `src/internal/README.md`).
 */

export { ApiClient, type LazyTransportOptions, type ServiceClientConfig } from './api-client.js';
export { ApiPromise, type WithResponse } from './api-promise.js';
export type {
  ClientOptions,
  OperationSchemas,
  SchemaLike,
  ServiceTransport,
  ValidatorsModule,
} from './client-options.js';
export * from './errors.js';
export { DEFAULT_CACHE_BYTES, DEFAULT_CACHE_ENTRIES, HttpCache, type HttpCacheOptions } from './http-cache.js';
export { LOG_ENV_VAR } from './internal/call/env.js';
export type { AttemptContext, RetryEvent, TransportHooks } from './internal/call/transport.js';
export { CACHE_STATUS_HEADER } from './internal/fleet/http-cache-engine.js';
export type { RateLimitUpdate, RateLimitWindow } from './internal/fleet/rate-limiter.js';
export type { RedisClientLike } from './internal/fleet/redis-client.js';
export { createLogger, type Logger, type LoggerOptions, type LogLevel } from './logger.js';
export type * from './manifest.js';
export {
  type BoundOperations,
  bindOperations,
  type CallHeaders,
  type HeadersInput,
  type HttpMethod,
  type Operation,
  type OperationCallOptions,
  type OperationClient,
  type OperationInput,
  type OperationOptions,
  type QueryConstraint,
  type RequestOptions,
  sendOperation,
} from './operations.js';
export {
  type CursorScheme,
  type OffsetPage,
  offsetCursor,
  type PaginateOptions,
  type Paginator,
  paginate,
  type ToArrayOptions,
} from './pagination.js';
export { VERSION } from './version.js';
