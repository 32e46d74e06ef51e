/**
 * @agent-apis/directory: client of the Directory API (MCP servers, coding-agent plugins and agent skills).
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
  HttpCache,
  type HttpCacheOptions,
  InternalServerError,
  type Logger,
  type LogLevel,
  NotFoundError,
  type Paginator,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  type ResponseIssue,
  ResponseValidationError,
  UnprocessableEntityError,
} from '@agent-apis/core';
export {
  BASE_URL_ENV_VAR,
  type DirectoryApi,
  DirectoryClient,
  type DirectoryClientOptions,
  LOG_ENV_VAR,
  type McpServerFilters,
  type McpServers,
  type PluginFilters,
  type Plugins,
  type SearchParams,
  type SkillFilters,
  type Skills,
} from './client.js';
export type * from './gen/sdk/types.gen.js';
export { DirectoryResource, type ListPage, type ListQuery, type RequestOptions } from './resource.js';
