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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: JsonSchema): unknown[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type !== undefined) return [schema.type];
  const branches = [...((schema.anyOf as JsonSchema[] | undefined) ?? []), ...((schema.oneOf as JsonSchema[]) ?? [])];
  return branches.flatMap((branch) => (isRecord(branch) ? typesOf(branch as JsonSchema) : []));
}

function acceptsNull(schema: JsonSchema): boolean {
  const types = typesOf(schema);
  return types.length === 0 ? schema.enum === undefined : types.includes('null');
}

/** At most this many characters of JSON text are parsed back into an object argument. */
const MAX_JSON_TEXT = 1_000_000;

/**
 * `value` as the operation's own schema expects it, undoing what a client's profile or its strict conversion did
 * (see `schema-profile.ts`): `null` for an optional property that does not take `null` is dropped (absent), and
 * JSON text where only an object is taken is parsed. Anything else is left for the checker to judge.
 */
export function normalizeArguments(schema: JsonSchema, value: unknown): unknown {
  const types = typesOf(schema);
  if (typeof value === 'string' && types.includes('object') && !types.includes('string')) {
    if (value.length > MAX_JSON_TEXT) return value;
    try {
      const parsed: unknown = JSON.parse(value);
      if (isRecord(parsed)) return normalizeArguments(schema, parsed);
    } catch {
      // Not JSON: the checker names the field.
    }
    return value;
  }
  if (Array.isArray(value) && isRecord(schema.items)) {
    return value.map((entry) => normalizeArguments(schema.items as JsonSchema, entry));
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!isRecord(value) || !isRecord(properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(value)) {
    const property = properties[name];
    if (!property) {
      out[name] = entry;
    } else if (entry === null && !required.has(name) && !acceptsNull(property)) {
      // absent
    } else {
      out[name] = normalizeArguments(property, entry);
    }
  }
  return out;
}
