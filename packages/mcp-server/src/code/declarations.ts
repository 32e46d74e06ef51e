/**
 * Compact TypeScript declarations of operations, from the input schemas of the operation table: what the describe
 * tool hands a model before it writes a script for `execute`. One `declare namespace` per API, one function per
 * operation, its summary and safety class in a one-line comment.
 */
import type { ServiceName, SpecSchema, ToolOperation } from '../operation.js';

/** Nesting kept before a type becomes `any` (the schemas are self-contained, so depth is the only bound). */
const MAX_DEPTH = 5;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A literal type; strings in single quotes (no escaping when the declarations travel inside JSON). */
function literal(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : literal(name);
}

/** The TypeScript type of `schema`, on one line. */
export function typeOf(schema: SpecSchema | boolean | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return 'any';
  if (schema === false) return 'never';
  if (depth > MAX_DEPTH) return 'any';
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ') || 'never';
  if ('const' in schema) return literal(schema.const);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) return union(list.map((entry) => typeOf(entry as SpecSchema, depth + 1)));
  }
  if (Array.isArray(schema.allOf)) {
    return schema.allOf.map((entry) => wrap(typeOf(entry as SpecSchema, depth + 1))).join(' & ') || 'any';
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return union(types.map((type) => single(schema, type, depth)));
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.includes('any') ? 'any' : unique.join(' | ');
}

function wrap(type: string): string {
  return type.includes('|') || type.includes('&') ? `(${type})` : type;
}

function single(schema: SpecSchema, type: string | undefined, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(typeOf(schema.items as SpecSchema | undefined, depth + 1))}[]`;
    case 'object':
    case undefined: {
      if (type === undefined && !schema.properties && schema.additionalProperties === undefined) return 'any';
      return objectType(schema, depth);
    }
    default:
      return 'any';
  }
}

function objectType(schema: SpecSchema, depth: number): string {
  const properties = (schema.properties ?? {}) as Record<string, SpecSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const members = Object.entries(properties).map(
    ([name, property]) => `${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, depth + 1)}`,
  );
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    members.push(`[key: string]: ${extra === true ? 'any' : typeOf(extra as SpecSchema, depth + 1)}`);
  } else if (members.length === 0) {
    return extra === false ? '{}' : 'Record<string, any>';
  }
  return `{ ${members.join('; ')} }`;
}

/** One operation as a declared function (with its one-line comment). */
export function declareOperation(operation: ToolOperation): string {
  const input = operation.inputSchema as SpecSchema;
  const required = ((input.required ?? []) as string[]).length > 0;
  const empty = Object.keys((input.properties ?? {}) as object).length === 0;
  const params = empty ? '' : `args${required ? '' : '?'}: ${typeOf(input)}`;
  return `  /** ${operation.summary} (${operation.safety}) */\n  function ${operation.id}(${params}): Promise<any>;`;
}

/** Declarations of `operations`, grouped by API in the order given. */
export function declare(operations: readonly { service: ServiceName; operation: ToolOperation }[]): string {
  const byService = new Map<ServiceName, string[]>();
  for (const { service, operation } of operations) {
    byService.set(service, [...(byService.get(service) ?? []), declareOperation(operation)]);
  }
  return [...byService].map(([service, lines]) => `declare namespace ${service} {\n${lines.join('\n')}\n}`).join('\n');
}
