/**
 * The agent-tool view of the operation table (read by `@agent-apis/mcp-server`'s generator): per operation its
 * safety class from the contract (`x-safety`, plus `x-spends-quota` on a read that spends the key's quota), a
 * short summary, the resource it belongs to, and one self-contained JSON Schema of its arguments (no `$ref`,
 * OpenAPI 3.0 `nullable` turned into type lists), which is what every MCP client accepts.
 */

import { VALUE_KEYWORDS } from '@agent-apis/core/call';
import {
  effectiveParameters,
  listOperations,
  type OpenApiDocument,
  resolveRef,
  type Schema,
} from '@agent-apis/specs/openapi';
import { templateVariables } from '@agent-apis/specs/paths';

/** read: changes nothing; write: an ordinary record; dangerous: money, setup, records the API cannot delete. */
export type SafetyClass = 'read' | 'write' | 'dangerous' | 'spends-quota';

/** A JSON Schema object as emitted (draft 2020-12 subset, no references). */
export type JsonSchema = Record<string, unknown>;

export interface ToolOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  safety: SafetyClass;
  /** First path segment without `.json` (`/products/{id}/variants.json` → `products`). */
  resource: string;
  /** `{ <path and query parameters>, body? }`, an object schema without `$ref`. */
  inputSchema: JsonSchema;
}

/** How deep `$ref`s are followed inside one schema; past it a schema becomes `{}` (any value). */
const MAX_SCHEMA_DEPTH = 6;
/** The longest description or summary kept (tool lists are read by models; long prose costs tokens). */
const MAX_TEXT = 160;

/** JSON Schema's own formats; OpenAPI's (`int32`, `float`, …) and made-up ones are dropped (clients warn or reject). */
const JSON_SCHEMA_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'hostname', 'ipv4', 'ipv6']);

/** Copied as they are: the checker's value keywords (it enforces every one), and `default`. */
const KEPT_KEYWORDS: ReadonlySet<string> = new Set([...VALUE_KEYWORDS, 'default']);

/** The first sentence of `text`, at most {@link MAX_TEXT} characters, on one line. */
export function shortText(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length <= MAX_TEXT ? sentence : `${sentence.slice(0, MAX_TEXT - 1).trimEnd()}…`;
}

/**
 * `raw` as a self-contained schema: references resolved (a cycle or a chain deeper than {@link MAX_SCHEMA_DEPTH}
 * becomes `{}`), `nullable` folded into `type`, composition kept as `anyOf`/`oneOf`/`allOf` of inlined schemas,
 * vendor keywords and examples dropped.
 */
export function inlineSchema(document: OpenApiDocument, raw: unknown, seen: readonly string[] = []): JsonSchema {
  if (!raw || typeof raw !== 'object') return {};
  const ref = (raw as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (seen.includes(ref) || seen.length >= MAX_SCHEMA_DEPTH) return {};
    return inlineSchema(document, resolveRef<Schema>(document, raw as Schema), [...seen, ref]);
  }
  const schema = raw as Record<string, unknown>;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) if (KEPT_KEYWORDS.has(key)) out[key] = value;
  if (typeof schema.format === 'string' && JSON_SCHEMA_FORMATS.has(schema.format)) out.format = schema.format;
  const description = shortText(schema.description);
  if (description) out.description = description;
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum) && schema.nullable === true && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (schema.properties && typeof schema.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, unknown>).map(([name, value]) => [
        name,
        inlineSchema(document, value, seen),
      ]),
    );
  }
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required;
  if (schema.items) out.items = inlineSchema(document, schema.items, seen);
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties =
      typeof schema.additionalProperties === 'boolean'
        ? schema.additionalProperties
        : inlineSchema(document, schema.additionalProperties, seen);
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) out[keyword] = list.map((entry) => inlineSchema(document, entry, seen));
  }
  return out;
}

function safetyOf(operation: Record<string, unknown>, where: string): SafetyClass {
  const safety = operation['x-safety'];
  if (safety !== 'read' && safety !== 'write' && safety !== 'dangerous') {
    throw new Error(`${where} has no x-safety class (read, write or dangerous) in its contract overlay`);
  }
  if (operation['x-spends-quota'] === true) {
    if (safety !== 'read') throw new Error(`${where}: x-spends-quota is only meaningful on a read`);
    return 'spends-quota';
  }
  return safety;
}

function resourceOf(path: string): string {
  const first = path.split('/').find((segment) => segment !== '' && !segment.startsWith('{')) ?? '';
  return first.replace(/\.json$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
}

function jsonBody(document: OpenApiDocument, requestBody: unknown): { schema: unknown; required: boolean } | undefined {
  if (!requestBody) return undefined;
  const body = resolveRef<{ required?: boolean; content?: Record<string, { schema?: unknown }> }>(
    document,
    requestBody as { required?: boolean },
  );
  const media = Object.entries(body.content ?? {}).find(([type]) => /^application\/([\w.-]+\+)?json\b/.test(type));
  return media ? { schema: media[1].schema, required: body.required === true } : undefined;
}

/** Every operation of a final document as a tool, in document order. Throws on an unclassed operation. */
export function describeToolOperations(document: OpenApiDocument): ToolOperation[] {
  return listOperations(document).map((ref) => {
    const where = `${ref.method.toUpperCase()} ${ref.path}`;
    const id = ref.operation.operationId;
    if (!id) throw new Error(`${where} has no operationId`);
    const operation = ref.operation as unknown as Record<string, unknown>;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const pathParams = templateVariables(ref.path);
    for (const parameter of effectiveParameters(document, ref)) {
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      const schema = inlineSchema(document, parameter.schema);
      const description = shortText((parameter as { description?: unknown }).description);
      if (description && !schema.description) schema.description = description;
      properties[parameter.name] = schema;
      if (parameter.in === 'path' || parameter.required === true) required.push(parameter.name);
    }
    for (const name of pathParams)
      if (!(name in properties)) throw new Error(`${where}: path parameter ${name} undeclared`);
    const body = jsonBody(document, ref.operation.requestBody);
    if (body) {
      if ('body' in properties) throw new Error(`${where}: a parameter is named \`body\``);
      properties.body = { ...inlineSchema(document, body.schema), description: 'The JSON request body.' };
      if (body.required) required.push('body');
    }
    const inputSchema: JsonSchema = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) inputSchema.required = required;
    return {
      id,
      method: ref.method.toUpperCase(),
      path: ref.path,
      summary: shortText(ref.operation.summary) ?? shortText(operation.description) ?? `${where}`,
      safety: safetyOf(operation, `${where} (${id})`),
      resource: resourceOf(ref.path),
      inputSchema,
    };
  });
}
