/**
 * @agent-apis/store: a typed client of the store management REST API.
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
  InternalServerError,
  type Logger,
  type LogLevel,
  NotFoundError,
  type Paginator,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '@agent-apis/core';
export type { StoreApi, StoreOperationOptions, StoreOperationResult } from './api.js';
export { CREDENTIAL_ENV_VARS, type StoreCredentialOptions } from './auth.js';
export { BASE_URL_ENV_VAR, DEFAULT_BASE_URL, LOG_ENV_VAR, StoreClient, type StoreClientOptions } from './client.js';
export { type OperationId, operations } from './gen/operations.gen.js';
export type * from './gen/sdk/types.gen.js';
export {
  DEFAULT_PAGE_SIZE,
  type ListFilters,
  type ListMethod,
  type ListOptions,
  type PagedItem,
  type PagedOperationId,
  type PaginateArgs,
  type PaginateOptions,
} from './pagination.js';
export { DEFAULT_RATE_LIMIT, RATE_LIMIT_HEADERS, type StoreRateLimitOptions } from './rate-limit.js';
