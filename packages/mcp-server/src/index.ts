/**
 * @agent-apis/mcp-server: the directory, store and trust APIs as one MCP tool server, safe by default.
 */
export {
  AnswerPager,
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_MAX_HELD_BYTES,
  DEFAULT_MAX_HELD_BYTES_TOTAL,
  HeldBudget,
  selectFields,
} from './answer.js';
export {
  buildCatalog,
  type CatalogOptions,
  MORE_TOOL,
  OPERATIONS,
  OUTPUT_SCHEMA,
  STORE_CALL_TOOL,
  STORE_RESOURCES,
  STORE_SEARCH_TOOL,
  STORE_WRITE_TOOL,
  serverInstructions,
  type ToolEntry,
} from './catalog.js';
export { type ClientsOptions, type FleetRedis, ServiceClients } from './clients.js';
export { CODE_MODE_ENV_VAR, type CodeModeOptions, DESCRIBE_TOOL, EXECUTE_TOOL } from './code/code-mode.js';
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './code/sandbox.js';
export {
  ALLOW_ORIGIN_ENV_VAR,
  DEFAULT_HTTP_PORT,
  MAX_ANSWER_BYTES_ENV,
  MAX_ANSWER_BYTES_ENV_VAR,
  MAX_HELD_BYTES_ENV_VAR,
  REDIS_URL_ENV,
  REDIS_URL_ENV_VAR,
  SERVICES_ENV,
  SERVICES_ENV_VAR,
  STORE_TOOLSETS_ENV,
  STORE_TOOLSETS_ENV_VAR,
} from './env.js';
export {
  CREDENTIAL_HEADERS,
  type HttpServerOptions,
  type RunningHttpServer,
  startHttpServer,
  TOKEN_ENV_VAR,
} from './http.js';
export { CLIENT_NAME_LIMIT, CLIENT_PREFIX, MAX_TOOL_NAME, operationToolName } from './names.js';
export type { SafetyClass, ServiceName, SpecSchema, ToolOperation } from './operation.js';
export {
  ALLOW_DANGEROUS_ENV,
  ALLOW_DANGEROUS_ENV_VAR,
  ALLOW_WRITES_ENV,
  ALLOW_WRITES_ENV_VAR,
  annotationsOf,
  refusal,
  type SafetyOptions,
  type ToolAnnotations,
} from './safety.js';
export { SCHEMA_PROFILE_ENV_VAR, SCHEMA_PROFILES, type SchemaProfile } from './schema-profile.js';
export { type AgentApisServerOptions, createAgentApisServer, listTools } from './server.js';
export { ToolCalls, type ToolCallsOptions, type ToolResult } from './tool-calls.js';
export { SERVER_NAME, SERVER_VERSION } from './version.js';
