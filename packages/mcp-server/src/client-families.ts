/**
 * Which client families accept a tool as listed (used by `schema.test.ts`, which writes the README's table):
 *
 * - MCP SDK: the SDK's own `Tool` schema, object input and output schemas, valid JSON Schemas (an output schema
 *   compiled, as the SDK's client does to check answers).
 * - OpenAI strict, after the conversion agent SDKs apply (every property required, optional ones nullable,
 *   `additionalProperties: false` on every object): no keyword outside the strict subset (`default`,
 *   `minLength`/`maxLength`, `oneOf`/`allOf`, `not`, … are refused), no free-form object, no open
 *   `additionalProperties`, a root object, at most 10 levels of nesting.
 * - Gemini `parameters`: its `Schema` object, a subset of OpenAPI 3.0: the fields `type` (one of string, number,
 *   integer, boolean, array, object, null, never a list), `format` (`enum`/`date-time` for strings,
 *   `int32`/`int64` for integers, `float`/`double` for numbers), `title`, `description`, `nullable`, `enum`
 *   (strings), `items`, `minItems`, `maxItems`, `properties` (an object declares at least one), `required`,
 *   `minProperties`, `maxProperties`, `minLength`, `maxLength`, `pattern`, `example`, `anyOf`,
 *   `propertyOrdering`, `default`, `minimum`, `maximum`; nothing else (no `additionalProperties`, no `oneOf`).
 * - Inspector `--strict` (`@modelcontextprotocol/inspector` 2.12 `--cli --method tools/list --strict`): its schema
 *   lint fails (exit 6) on an error finding, a bare boolean where a schema is expected (outside
 *   `additionalProperties` and the like); type lists, remote `$ref`s and untyped schemas are warnings only.
 */
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { strictConversion } from './schema-profile.js';
import type { listTools } from './server.js';

export type ListedTool = ReturnType<typeof listTools>[number];
export const FAMILIES = ['MCP SDK', 'OpenAI strict', 'Gemini', 'Inspector --strict'] as const;
export type Family = (typeof FAMILIES)[number];

type Node = Record<string, unknown>;

function isRecord(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every subschema of `node` with its path and depth (properties, items, anyOf/oneOf/allOf, additionalProperties). */
function* subschemas(node: unknown, path = '#', depth = 0): Generator<[string, unknown, number]> {
  yield [path, node, depth];
  if (!isRecord(node)) return;
  if (isRecord(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      yield* subschemas(child, `${path}/properties/${name}`, depth + 1);
    }
  }
  if (node.items !== undefined) yield* subschemas(node.items, `${path}/items`, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = node[key];
    if (Array.isArray(list))
      for (const [i, child] of list.entries()) yield* subschemas(child, `${path}/${key}/${i}`, depth);
  }
  if (isRecord(node.additionalProperties)) {
    yield* subschemas(node.additionalProperties, `${path}/additionalProperties`, depth + 1);
  }
}

const validator = new Ajv2020({ strict: false, logger: false });

function mcpSdk(tool: ListedTool): string[] {
  const problems: string[] = [];
  if (!ToolSchema.safeParse(tool).success) problems.push('not an SDK Tool');
  for (const [label, schema] of [
    ['inputSchema', tool.inputSchema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    if (schema === undefined) continue;
    if (schema.type !== 'object') problems.push(`${label} is not an object schema`);
    // The SDK's client compiles output schemas (it validates answers against them); input schemas it passes on.
    if (label === 'inputSchema' && !validator.validateSchema(schema)) problems.push(`${label} is not a valid schema`);
    if (label === 'outputSchema') {
      try {
        validator.compile(schema);
      } catch (error) {
        problems.push(`${label} does not compile: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}

const OPENAI_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const OPENAI_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

function openaiStrict(tool: ListedTool): string[] {
  const problems: string[] = [];
  const converted = strictConversion(tool.inputSchema);
  if (converted.type !== 'object') problems.push('the root is not an object');
  for (const [path, node, depth] of subschemas(converted)) {
    if (!isRecord(node)) continue;
    if (depth > 10) problems.push(`${path}: nested deeper than 10 levels`);
    for (const key of Object.keys(node)) if (!OPENAI_KEYWORDS.has(key)) problems.push(`${path}: ${key}`);
    if (typeof node.format === 'string' && !OPENAI_FORMATS.has(node.format))
      problems.push(`${path}: format ${node.format}`);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('object')) {
      if (!isRecord(node.properties) || Object.keys(node.properties).length === 0) {
        problems.push(`${path}: a free-form object`);
      }
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
    }
  }
  return problems;
}

const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'minimum',
  'maximum',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const GEMINI_FORMATS: Record<string, readonly string[]> = {
  string: ['enum', 'date-time'],
  integer: ['int32', 'int64'],
  number: ['float', 'double'],
};

function gemini(tool: ListedTool): string[] {
  const problems: string[] = [];
  for (const [path, node] of subschemas(tool.inputSchema)) {
    if (!isRecord(node)) {
      problems.push(`${path}: not a schema object`);
      continue;
    }
    for (const key of Object.keys(node)) if (!GEMINI_KEYWORDS.has(key)) problems.push(`${path}: ${key}`);
    if (node.type !== undefined && (typeof node.type !== 'string' || !GEMINI_TYPES.has(node.type))) {
      problems.push(`${path}: type ${JSON.stringify(node.type)}`);
    }
    if (node.format !== undefined && !(GEMINI_FORMATS[node.type as string] ?? []).includes(node.format as string)) {
      problems.push(`${path}: format ${String(node.format)} for ${String(node.type)}`);
    }
    if (
      node.enum !== undefined &&
      (node.type !== 'string' || !(node.enum as unknown[]).every((v) => typeof v === 'string'))
    ) {
      problems.push(`${path}: enum of non-strings`);
    }
    if (node.type === 'object' && (!isRecord(node.properties) || Object.keys(node.properties).length === 0)) {
      problems.push(`${path}: an object without properties`);
    }
    if (node.type === 'array' && node.items === undefined) problems.push(`${path}: an array without items`);
  }
  return problems;
}

const BOOLEAN_ALLOWED_UNDER = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
]);

function inspectorStrict(tool: ListedTool): string[] {
  const problems: string[] = [];
  for (const schema of [tool.inputSchema, tool.outputSchema]) {
    if (schema === undefined) continue;
    for (const [path, node] of subschemas(schema)) {
      const keyword = path.split('/').at(-1) ?? '';
      const parent = path.split('/').at(-2) ?? '';
      if (typeof node === 'boolean' && !BOOLEAN_ALLOWED_UNDER.has(keyword) && !BOOLEAN_ALLOWED_UNDER.has(parent)) {
        problems.push(`${path}: a bare ${node}`);
      }
    }
  }
  return problems;
}

const CHECKS: Record<Family, (tool: ListedTool) => string[]> = {
  'MCP SDK': mcpSdk,
  'OpenAI strict': openaiStrict,
  Gemini: gemini,
  'Inspector --strict': inspectorStrict,
};

/** Why `family` refuses `tool` (empty: accepted). */
export function familyProblems(family: Family, tool: ListedTool): string[] {
  return CHECKS[family](tool);
}

/** How many of `tools` each family accepts. */
export function acceptedCounts(tools: readonly ListedTool[]): Record<Family, number> {
  return Object.fromEntries(
    FAMILIES.map((family) => [family, tools.filter((tool) => familyProblems(family, tool).length === 0).length]),
  ) as Record<Family, number>;
}
