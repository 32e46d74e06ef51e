/**
 * @agent-apis/directory: client of the Directory API (MCP servers, coding-agent plugins and agent skills).
 */

export type {
  ApiPromise,
  HttpCacheOptions,
  Logger,
  LogLevel,
  Paginator,
  RequestOptions,
  WithResponse,
} from '@agent-apis/core';
export {
  AgentApiError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  type ErrorResponse,
  errorClassForStatus,
  HttpCache,
  InternalServerError,
  InvalidBaseUrlError,
  LOG_ENV_VAR,
  type MissingCredentials,
  MissingCredentialsError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitBanError,
  RateLimitError,
  RedisUnavailableError,
  type RequestContext,
  type RequestDescription,
  RequestValidationError,
  type RequestValidationProblem,
  type ResponseIssue,
  ResponseParseError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '@agent-apis/core';
export {
  BASE_URL_ENV_VAR,
  createDirectoryClient,
  type DirectoryApi,
  DirectoryClient,
  type DirectoryClientOptions,
  FLEET_SECRET_ENV_VAR,
  type McpServerFilters,
  type McpServers,
  type PluginFilters,
  type Plugins,
  type SearchParams,
  type SkillFilters,
  type Skills,
} from './client.js';
export * from './gen/api.gen.js';
export { type OperationId, operations } from './gen/operations.gen.js';
export type * from './gen/types.gen.js';
export { DirectoryResource, type ListPage, type ListQuery } from './resource.js';
