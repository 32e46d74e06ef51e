/**
 * Request values derived from the spec's schemas: what the suite sends for "only the required parameters" and
 * for "all of them". Deterministic; prefers the spec's own example, enum, default, then the type and format.
 */
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { resolveRef } from '@agent-apis/specs/openapi';
import type { ContractOperation, JsonSchema } from '../contract-spec/spec.ts';

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

function firstType(schema: JsonSchema): string | undefined {
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

/** Inputs for one call, in the shape the generated SDK functions take. */
export interface CallInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The call with only what the operation requires, or with every parameter and body property it declares. */
export function sampleInput(document: OpenApiDocument, operation: ContractOperation, coverage: Coverage): CallInput {
  const input: CallInput = {};
  for (const parameter of operation.parameters) {
    if (!parameter.required && coverage === 'required') continue;
    if (parameter.in === 'cookie' || parameter.in === 'header') continue;
    const value = sampleValue(document, parameter.schema, coverage);
    const slot = parameter.in === 'path' ? 'path' : 'query';
    input[slot] = { ...(input[slot] ?? {}), [parameter.name]: value };
  }
  if (operation.body && (operation.body.required || coverage === 'all')) {
    input.body = sampleValue(document, operation.body.schema, coverage);
  }
  return input;
}

/** A call that violates the operation's contract, and how it is expected to be stopped. */
export interface BrokenInput {
  input: CallInput;
  /** What was broken, for messages. */
  what: string;
  /** The broken field (`query.limit`, `body`) and the value sent there (left out for a missing value). */
  field?: string;
  sent?: unknown;
  /** `client`: the client can tell before sending; `either`: only the server may know. */
  stoppedBy: 'client' | 'either';
}

/** The first available way to break an operation's input, or undefined when it takes none. */
export function breakInput(document: OpenApiDocument, operation: ContractOperation): BrokenInput | undefined {
  const valid = sampleInput(document, operation, 'required');
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    const schema = normalize(document, parameter.schema);
    const query = (value: unknown) => ({ ...valid, query: { ...valid.query, [parameter.name]: value } });
    if (Array.isArray(schema.enum)) {
      return {
        input: query('not-in-the-enum'),
        what: `query.${parameter.name} outside its enum`,
        field: `query.${parameter.name}`,
        sent: 'not-in-the-enum',
        stoppedBy: 'client',
      };
    }
    if (typeof schema.maximum === 'number') {
      return {
        input: query(schema.maximum + 1),
        what: `query.${parameter.name} above its maximum ${schema.maximum}`,
        field: `query.${parameter.name}`,
        sent: schema.maximum + 1,
        stoppedBy: 'client',
      };
    }
    if (typeof schema.minimum === 'number') {
      return {
        input: query(schema.minimum - 1),
        what: `query.${parameter.name} below its minimum ${schema.minimum}`,
        field: `query.${parameter.name}`,
        sent: schema.minimum - 1,
        stoppedBy: 'client',
      };
    }
    if (parameter.required) {
      const { [parameter.name]: _omitted, ...rest } = valid.query ?? {};
      return {
        input: { ...valid, query: rest },
        what: `required query.${parameter.name} missing`,
        field: `query.${parameter.name}`,
        stoppedBy: 'client',
      };
    }
  }
  const pathParameter = operation.parameters.find((p) => p.in === 'path');
  if (pathParameter) {
    return {
      input: { ...valid, path: { ...valid.path, [pathParameter.name]: '' } },
      what: `path.${pathParameter.name} empty`,
      stoppedBy: 'client',
    };
  }
  if (operation.body) {
    const schema = normalize(document, operation.body.schema);
    const wrongType = firstType(schema) === 'array' ? { not: 'an array' } : ['not', 'an', 'object'];
    return {
      input: { ...valid, body: wrongType },
      what: 'body of the wrong type',
      field: 'body',
      sent: wrongType,
      stoppedBy: 'either',
    };
  }
  return undefined;
}
