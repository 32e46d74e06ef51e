/**
 * @agent-apis/store: a typed client of the store management REST API.
 */

// What a user of the client meets of core (every error class, `errorClassForStatus`, the options' and
// answers' types, …): core's root is that list, kept once there.
export * from '@agent-apis/core';
export type { StoreApi, StoreOperationOptions, StoreOperationResult } from './api.js';
export { CREDENTIAL_ENV_VARS, type StoreCredentialOptions } from './auth.js';
export {
  BASE_URL_ENV_VAR,
  createStoreClient,
  DEFAULT_BASE_URL,
  StoreClient,
  type StoreClientOptions,
} from './client.js';
export * from './gen/api.gen.js';
export { type OperationId, operations } from './gen/operations.gen.js';
export type * from './gen/resources.gen.js';
export type * from './gen/types.gen.js';
// The generated types' own `ClientOptions` (the spec's servers) keeps the name, as before core's were re-exported whole.
export type { ClientOptions } from './gen/types.gen.js';
export {
  DEFAULT_PAGE_SIZE,
  type ListFilters,
  type ListMethod,
  type PagedItem,
  type PagedOperationId,
  type PaginateArgs,
  type PaginateOptions,
} from './pagination.js';
export {
  BAN_RESET_HEADER,
  DEFAULT_FLEET_WORKERS,
  DEFAULT_RATE_LIMIT,
  type FleetRedisClient,
  RATE_LIMIT_HEADERS,
  type StoreRateLimitOptions,
} from './rate-limit-options.js';
export type {
  BodyParams,
  ItemOf,
  QueryParams,
  ResourceOptions,
  Unwrapped,
  WithoutNestedEnvelopes,
} from './resources.js';
