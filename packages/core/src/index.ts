/**
 * @agent-apis/core: what a user of a service client meets, which each service package re-exports: every error class,
 * the client and per-call options, the operation row's types, `ApiPromise`, the paginator's types, the logger's types,
 * the HTTP cache a user may share between clients, and the hooks' events. What a sibling package builds a client from
 * is `@agent-apis/core/service`; what loads with a client's first call is `@agent-apis/core/call`.
 */

export { ApiPromise } from './api-promise.js';
export * from './errors.js';
export { HttpCache, type HttpCacheOptions } from './http-cache.js';
export type {
  ClientOptions,
  OperationSchemas,
  SchemaLike,
  ServiceTransport,
  ValidatorsModule,
} from './internal/call/client-options.js';
export { LOG_ENV_VAR } from './internal/call/env.js';
export type { Logger, LoggerOptions, LogLevel } from './internal/call/logger.js';
export type { AttemptContext, RetryEvent, TransportHooks } from './internal/call/transport.js';
export { CACHE_STATUS_HEADER } from './internal/fleet/cache-entry.js';
export type { RateLimitUpdate, RateLimitWindow } from './internal/fleet/rate-limiter.js';
export type { RedisClientLike } from './internal/fleet/redis-client.js';
export type {
  CallHeaders,
  HeadersInput,
  HttpMethod,
  Operation,
  OperationCallOptions,
  OperationClient,
  OperationInfo,
  OperationInput,
  OperationOptions,
  QueryConstraint,
  RequestOptions,
  WithResponse,
} from './operations.js';
export type { CursorScheme, OffsetPage, PaginateOptions, Paginator, ToArrayOptions } from './pagination.js';
