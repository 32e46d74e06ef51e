/**
 * Arguments checked against an operation's input schema before anything is sent, by core's argument checker (the one
 * the REST clients and the MCP tool clients use too), and split into the client's call options (`path`, `query`,
 * `body`).
 */
import { findViolations, type JsonSchema } from '@agent-apis/core/call';
import type { ToolOperation } from './operation.js';

/** The problems of `args` for `operation`, each naming the argument (empty when valid); at most five. */
export function argumentProblems(operation: ToolOperation, args: unknown): string[] {
  return findViolations(operation.inputSchema as JsonSchema, args, 5).map(({ field, reason }) => `${field} ${reason}`);
}

/** The client's call options for checked `args`: path template variables, query parameters and `body`. */
export function callOptions(operation: ToolOperation, args: Record<string, unknown>) {
  const pathNames = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  let body: unknown;
  for (const [name, value] of Object.entries(args)) {
    if (name === 'body') body = value;
    else if (pathNames.includes(name)) path[name] = value;
    else query[name] = value;
  }
  return {
    ...(pathNames.length > 0 ? { path } : {}),
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
  };
}
