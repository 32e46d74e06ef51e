/**
 * @agent-apis/mcp: typed clients of the store's and the directory's agent tool servers (MCP over streamable HTTP).
 */

// What a user of the client meets of core (every error class, `errorClassForStatus`, the options' and
// answers' types, …): core's root is that list, kept once there.
export * from '@agent-apis/core';
// The argument checker is core's, shared by every path; its names stay here for this package's users.
export { findViolation, type JsonSchema, type JsonType, patternRisk, type Violation } from '@agent-apis/core/call';
export {
  DIRECTORY_MCP_URL_ENV,
  DIRECTORY_MCP_URL_ENV_VAR,
  DirectoryTools,
  type DirectoryToolsOptions,
} from './directory.js';
export { ToolError } from './errors.js';
export type * from './gen/directory.gen.js';
export { directoryInputSchemas, directoryOutputSchemas } from './gen/directory.gen.js';
export type * from './gen/store.gen.js';
export { storeInputSchemas, storeOutputSchemas } from './gen/store.gen.js';
export { toolMethodName } from './naming.js';
export { STORE_MCP_DEFAULT_URL, StoreTools, type StoreToolsOptions } from './store.js';
export {
  STORE_MCP_ALIAS_ENV_VARS,
  STORE_MCP_ENV,
  STORE_MCP_ENV_ALIASES,
  STORE_MCP_ENV_VARS,
  type StoreCredentialEnvVars,
  storeCredentialEnvVars,
} from './store-env.js';
export {
  DEFAULT_TIMEOUT_MS,
  type JsonValue,
  MAX_TOOL_LIST_PAGES,
  type ToolCallOptions,
  type ToolClientOptions,
  type ToolDescription,
  type ToolOutput,
  type ToolResult,
  ToolServerClient,
  type ToolServerConnection,
} from './tool-client.js';
export { VERSION } from './version.js';
