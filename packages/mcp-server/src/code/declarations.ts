/**
 * Compact TypeScript declarations of operations, from the input schemas of the operation table: what the describe
 * tool hands a model before it writes a script for `execute`, so every byte counts. One `declare const` object type
 * per API (what the sandbox holds), one unindented method per operation, written without padding (`search(args:{q:string;type?:'mcp'|'all'}):Promise<any>;`). A comment only
 * where it says something the name does not: the summary unless it restates the name (`listProducts`, "Retrieve all
 * Products."), the safety class unless it is `read`.
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
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join('|') || 'never';
  if ('const' in schema) return literal(schema.const);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) return union(list.map((entry) => typeOf(entry as SpecSchema, depth + 1)));
  }
  if (Array.isArray(schema.allOf)) {
    return schema.allOf.map((entry) => wrap(typeOf(entry as SpecSchema, depth + 1))).join('&') || 'any';
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return union(types.map((type) => single(schema, type, depth)));
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.includes('any') ? 'any' : unique.join('|');
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
    ([name, property]) => `${key(name)}${required.has(name) ? '' : '?'}:${typeOf(property, depth + 1)}`,
  );
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    members.push(`[key:string]:${extra === true ? 'any' : typeOf(extra as SpecSchema, depth + 1)}`);
  } else if (members.length === 0) {
    return extra === false ? '{}' : 'Record<string, any>';
  }
  return `{${members.join(';')}}`;
}

/** Words a summary may add to an operation's name and still say nothing more ("Retrieve all Products."). */
const FILLER = new Set(['a', 'all', 'an', 'by', 'of', 'one', 'retrieve', 'single', 'the']);
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.replace(/(?<=[^s])s$/, ''));
}

/** Whether `summary` only restates `id` (every word of it is in the id, or filler). */
export function restatesName(summary: string, id: string): boolean {
  const named = new Set(wordsOf(id));
  return wordsOf(summary).every((word) => named.has(word) || FILLER.has(word));
}

/** One operation as a method signature, after a one-line comment when it has something to say. */
export function declareOperation(operation: ToolOperation): string {
  const input = operation.inputSchema as SpecSchema;
  const required = ((input.required ?? []) as string[]).length > 0;
  const empty = Object.keys((input.properties ?? {}) as object).length === 0;
  const params = empty ? '' : `args${required ? '' : '?'}:${typeOf(input)}`;
  const summary = operation.summary.trim().replace(/\.$/, '');
  const notes = [
    ...(summary && !restatesName(summary, operation.id) ? [summary] : []),
    ...(operation.safety === 'read' ? [] : [operation.safety]),
  ];
  const comment = notes.length > 0 ? `/** ${notes.join('; ')} */\n` : '';
  return `${comment}${operation.id}(${params}):Promise<any>;`;
}

/** Declarations of `operations`, grouped by API in the order given. */
export function declare(operations: readonly { service: ServiceName; operation: ToolOperation }[]): string {
  const byService = new Map<ServiceName, string[]>();
  for (const { service, operation } of operations) {
    byService.set(service, [...(byService.get(service) ?? []), declareOperation(operation)]);
  }
  return [...byService].map(([service, lines]) => `declare const ${service}: {\n${lines.join('\n')}\n};`).join('\n');
}
