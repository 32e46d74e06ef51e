/**
 * A value for a JSON Schema, derived from the schema alone: deterministic, preferring the schema's own example,
 * enum and default, then its type and format. The contract suite builds its requests from it, the local tool
 * servers their placeholder results.
 */
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { resolveRef } from '@agent-apis/specs/openapi';

/** A schema as the spec writes it (the spec's own keys, read loosely). */
export type JsonSchema = Record<string, unknown>;

export type Coverage = 'required' | 'all';

const MAX_DEPTH = 4;

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2026-11-21T10:00:00Z',
  date: '2026-11-21',
  email: 'agent@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
};

const PATTERN_CANDIDATES = ['example.com', 'EXAMPLE_CODE', 'abc', 'ABC', '1', 'a1', 'dec_0123456789abcdef0123456789'];

export function firstType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  return type as string | undefined;
}

function mergeAllOf(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const parts = (schema.allOf as JsonSchema[]).map((part) => normalize(document, part));
  const merged: JsonSchema = { ...schema, allOf: undefined };
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const part of parts) {
    Object.assign(properties, part.properties ?? {});
    for (const name of (part.required as string[] | undefined) ?? []) required.add(name);
    if (part.type && !merged.type) merged.type = part.type;
  }
  merged.properties = { ...properties, ...((schema.properties as object) ?? {}) };
  merged.required = [...required, ...((schema.required as string[]) ?? [])];
  return merged;
}

/** Resolves `$ref`, folds `allOf`, picks the first `oneOf`/`anyOf` branch. */
export function normalize(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  let current = resolveRef<JsonSchema>(document, (schema ?? {}) as never);
  if (Array.isArray(current.allOf)) current = mergeAllOf(document, current);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = current[key] as JsonSchema[] | undefined;
    if (branches?.length) {
      const branch = branches.find((b) => firstType(resolveRef(document, b as never)) !== 'null') ?? branches[0];
      return normalize(document, {
        ...current,
        [key]: undefined,
        ...resolveRef<JsonSchema>(document, branch as never),
      });
    }
  }
  return current;
}

function sampleString(schema: JsonSchema): string {
  const format = schema.format as string | undefined;
  let value = (format && FORMAT_SAMPLES[format]) || 'sample';
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern as string, 'u');
    value = [value, ...PATTERN_CANDIDATES].find((candidate) => pattern.test(candidate)) ?? value;
  }
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = schema.maxLength as number | undefined;
  if (value.length < min) value = value.padEnd(min, 'x');
  if (max !== undefined && value.length > max) value = value.slice(0, max);
  return value;
}

function sampleNumber(schema: JsonSchema, integer: boolean): number {
  const min = (schema.minimum as number | undefined) ?? (schema.exclusiveMinimum as number | undefined);
  const max = schema.maximum as number | undefined;
  let value = min !== undefined ? (typeof schema.exclusiveMinimum === 'number' ? min + 1 : min) : 1;
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

/** A value that satisfies `schema`; with `coverage: 'all'` objects carry every property, else only required ones. */
export function sampleValue(
  document: OpenApiDocument,
  raw: JsonSchema | undefined,
  coverage: Coverage,
  depth = 0,
): unknown {
  const schema = normalize(document, raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.example !== undefined && firstType(schema) !== 'object') return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && firstType(schema) !== 'object') {
    return schema.examples[0];
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = firstType(schema) ?? (schema.properties ? 'object' : schema.items ? 'array' : 'string');
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const names = Object.keys(properties).filter(
        (name) =>
          required.has(name) || (coverage === 'all' && depth < MAX_DEPTH && !isReadOnly(document, properties[name])),
      );
      return Object.fromEntries(
        names.map((name) => [name, sampleValue(document, properties[name], coverage, depth + 1)]),
      );
    }
    case 'array': {
      const count = Math.max((schema.minItems as number | undefined) ?? 0, coverage === 'all' || depth === 0 ? 1 : 0);
      return Array.from({ length: count }, () =>
        sampleValue(document, schema.items as JsonSchema, coverage, depth + 1),
      );
    }
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return true;
    default:
      return sampleString(schema);
  }
}

function isReadOnly(document: OpenApiDocument, schema: JsonSchema | undefined): boolean {
  return normalize(document, schema).readOnly === true;
}
