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
export { LOG_ENV_VAR } from '@agent-apis/core/client';
export * from '@agent-apis/core/errors';
export { HttpCache } from '@agent-apis/core/http-cache';
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
