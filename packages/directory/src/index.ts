/**
 * @agent-apis/directory: client of the Directory API (MCP servers, coding-agent plugins and agent skills).
 */

// What a user of the client meets of core (every error class, `errorClassForStatus`, the options' and
// answers' types, …): core's root is that list, kept once there.
export * from '@agent-apis/core';
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
// The generated types' own `ClientOptions` (the spec's servers) keeps the name, as before core's were re-exported whole.
export type { ClientOptions } from './gen/types.gen.js';
export { DirectoryResource, type ListPage, type ListQuery } from './resource.js';
