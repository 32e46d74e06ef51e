/**
 * Safety at dispatch: which operations a server may send, from the class the contract gives each one. Read-only
 * by default (reads and quota-spending reads run); `allowWrites` opens the writes of a service; a dangerous
 * operation runs only when its id is named in `allowDangerous`. A refusal names the option that would allow it.
 */
import type { SafetyClass, ServiceName, ToolOperation } from './operation.js';

/** What a server may send beyond reads. */
export interface SafetyOptions {
  /** Services whose `write` operations may be sent (default none: read-only). Env `AGENT_APIS_MCP_ALLOW_WRITES`. */
  allowWrites?: readonly ServiceName[] | undefined;
  /**
   * `dangerous` operations that may be sent, as `<service>.<operationId>` (e.g. `store.createHook`); each one named,
   * never a pattern. Env `AGENT_APIS_MCP_ALLOW_DANGEROUS` (comma-separated).
   */
  allowDangerous?: readonly string[] | undefined;
}

/** Environment variable the command line reads `allowWrites` from (comma-separated services). */
export const ALLOW_WRITES_ENV_VAR = 'AGENT_APIS_MCP_ALLOW_WRITES';
/** Environment variable the command line reads `allowDangerous` from (comma-separated `<service>.<operationId>`). */
export const ALLOW_DANGEROUS_ENV_VAR = 'AGENT_APIS_MCP_ALLOW_DANGEROUS';
/** @deprecated Use {@link ALLOW_WRITES_ENV_VAR} (every package names environment variables `*_ENV_VAR`). */
export const ALLOW_WRITES_ENV = ALLOW_WRITES_ENV_VAR;
/** @deprecated Use {@link ALLOW_DANGEROUS_ENV_VAR}. */
export const ALLOW_DANGEROUS_ENV = ALLOW_DANGEROUS_ENV_VAR;

/** Why `operation` may not be sent under `options`, with the option that would allow it; `undefined` if allowed. */
export function refusal(service: ServiceName, operation: ToolOperation, options: SafetyOptions): string | undefined {
  const what = `${service}.${operation.id} (${operation.method} ${operation.path})`;
  switch (operation.safety) {
    case 'read':
    case 'spends-quota':
      return undefined;
    case 'write':
      if (options.allowWrites?.includes(service)) return undefined;
      return `Refused: ${what} is a write and this server is read-only for ${service}. Nothing was sent. To allow the ${service} API's writes, start the server with --allow-writes=${service} (env ${ALLOW_WRITES_ENV_VAR}=${service}; option allowWrites: ['${service}']).`;
    case 'dangerous': {
      const name = `${service}.${operation.id}`;
      if (options.allowDangerous?.includes(name)) return undefined;
      return `Refused: ${what} is classed dangerous (it changes how the store takes money, ships or behaves, or leaves records the API cannot delete). Nothing was sent. To allow this one operation, start the server with --allow-dangerous=${name} (env ${ALLOW_DANGEROUS_ENV_VAR}=${name}; option allowDangerous: ['${name}']).`;
    }
  }
}

/**
 * The MCP tool annotations of a class (hints to clients; the server enforces the class itself). A hint left out
 * takes the protocol's default: `destructiveHint: true`, `idempotentHint: false`, `openWorldHint: true`.
 */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * The annotations of an operation: reads are read-only and idempotent; a quota-spending read is read-only but not
 * idempotent (every call spends); a write is destructive when it deletes or replaces (DELETE, PUT), idempotent for
 * PUT and DELETE; a dangerous operation is always destructive. Every tool reaches a remote API (open world).
 */
export function annotationsOf(safety: SafetyClass, method: string): Required<ToolAnnotations> {
  switch (safety) {
    case 'read':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
    case 'spends-quota':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true };
    case 'write':
      return {
        readOnlyHint: false,
        destructiveHint: method === 'DELETE' || method === 'PUT',
        idempotentHint: method === 'DELETE' || method === 'PUT',
        openWorldHint: true,
      };
    case 'dangerous':
      return {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: method === 'DELETE' || method === 'PUT',
        openWorldHint: true,
      };
  }
}

/** Parses a comma-separated list (env values), dropping blanks. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
