/**
 * @agent-apis/directory: client of the Directory API (MCP servers, coding-agent plugins and agent skills).
 */

export {
  HttpCache,
  type HttpCacheOptions,
  LOG_ENV_VAR,
  type Logger,
  type LogLevel,
  type Paginator,
} from '@agent-apis/core';
export * from '@agent-apis/core/errors';
export {
  BASE_URL_ENV_VAR,
  createDirectoryClient,
  type DirectoryApi,
  DirectoryClient,
  type DirectoryClientOptions,
  type McpServerFilters,
  type McpServers,
  type PluginFilters,
  type Plugins,
  type SearchParams,
  type SkillFilters,
  type Skills,
} from './client.js';
export * from './gen/api.gen.js';
export type * from './gen/sdk/types.gen.js';
export { DirectoryResource, type ListPage, type ListQuery, type RequestOptions } from './resource.js';
