/** Tool names: `<service>_<operation in snake_case>`, within 64 characters with a client's prefix. */
import type { ServiceName } from './operation.js';

/** The longest tool name clients accept once they have added their prefix (several cut or reject longer ones). */
export const CLIENT_NAME_LIMIT = 64;
/** The prefix Claude Code adds for a server configured as `agent-apis` (the README's name), the longest common one. */
export const CLIENT_PREFIX = 'mcp__agent-apis__';
/** The longest tool name the server emits. */
export const MAX_TOOL_NAME = CLIENT_NAME_LIMIT - CLIENT_PREFIX.length;

/** `listMcpServers` → `list_mcp_servers`. */
export function snakeCase(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}

/** The tool name of an operation; throws if over {@link MAX_TOOL_NAME} (generation must then pick a shorter form). */
export function operationToolName(service: ServiceName, id: string): string {
  const name = `${service}_${snakeCase(id)}`;
  if (name.length > MAX_TOOL_NAME) throw new Error(`tool name ${name} is over ${MAX_TOOL_NAME} characters`);
  return name;
}
