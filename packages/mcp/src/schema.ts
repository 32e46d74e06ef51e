/**
 * A small JSON Schema checker for tool arguments. It implements the keywords the tool servers' input schemas use
 * (types, properties, required, additionalProperties, items, enum, const, numeric and length bounds, pattern and a
 * few formats), stops at the first violation, and names it the way `RequestValidationError` does: a field path such
 * as `arguments.images[0].url` and a reason that follows it. The generator refuses a schema with any other keyword
 * ({@link unsupportedKeywords}), so nothing in a pinned schema goes unchecked. No code generation at run time, so it
 * works where `eval` is forbidden.
 */

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** The JSON Schema subset this checker implements. */
export interface JsonSchema {
  type?: JsonType | readonly JsonType[];
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  title?: string;
  description?: string;
  default?: unknown;
  examples?: readonly unknown[];
}

/** One broken rule: where, and what is wrong (phrased to follow the field name). */
export interface Violation {
  field: string;
  reason: string;
}

const FORMATS: Readonly<Record<string, { test: (value: string) => boolean; reason: string }>> = {
  'date-time': {
    test: (value) =>
      /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) &&
      !Number.isNaN(Date.parse(value)),
    reason: 'must be a date-time (RFC 3339, e.g. 2026-11-21T10:00:00Z)',
  },
  date: {
    test: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)),
    reason: 'must be a date (YYYY-MM-DD)',
  },
  uri: {
    test: (value) => /^[a-z][a-z0-9+.-]*:/i.test(value) && URL.canParse(value),
    reason: 'must be an absolute URI',
  },
  email: { test: (value) => /^[^@\s]+@[^@\s]+$/.test(value), reason: 'must be an email address' },
};

/** Keywords that only document a schema. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$schema', '$comment', 'deprecated']);

/** Keywords {@link findViolation} checks. */
const CHECKED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
]);

function child(field: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${field}.${key}` : `${field}[${JSON.stringify(key)}]`;
}

/** Keywords (and formats) in `schema` this checker would not enforce, with where they are. Empty when all is known. */
export function unsupportedKeywords(schema: JsonSchema, field = 'arguments'): string[] {
  const found: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (!CHECKED.has(keyword) && !ANNOTATIONS.has(keyword)) found.push(`${keyword} at ${field}`);
    if (keyword === 'format' && !Object.hasOwn(FORMATS, String(value))) found.push(`format "${value}" at ${field}`);
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push(...unsupportedKeywords(property, child(field, name)));
  }
  if (typeof schema.additionalProperties === 'object') {
    found.push(...unsupportedKeywords(schema.additionalProperties, `${field}.*`));
  }
  if (schema.items) found.push(...unsupportedKeywords(schema.items, `${field}[]`));
  return found;
}

function typeOf(value: unknown): JsonType | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number')
    return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'number' : 'other';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value === 'object' ? 'object' : 'other';
}

const ARTICLE: Record<JsonType, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  null: 'null',
};

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
}

/** The first way `value` breaks `schema`, or undefined when it satisfies it. Properties set to `undefined` are absent. */
export function findViolation(schema: JsonSchema, value: unknown, field = 'arguments'): Violation | undefined {
  const at = (reason: string): Violation => ({ field, reason });
  const actual = typeOf(value);
  if (schema.type !== undefined) {
    const allowed: readonly JsonType[] = typeof schema.type === 'string' ? [schema.type] : schema.type;
    const matches = allowed.some((type) => type === actual || (type === 'number' && actual === 'integer'));
    if (!matches) return at(`must be ${allowed.map((type) => ARTICLE[type]).join(' or ')}`);
  }
  if (schema.const !== undefined && !sameValue(schema.const, value)) {
    return at(`must be ${JSON.stringify(schema.const)}`);
  }
  if (schema.enum && !schema.enum.some((option) => sameValue(option, value))) {
    return at(`must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if (typeof value === 'number') return numberViolation(schema, value, at);
  if (typeof value === 'string') return stringViolation(schema, value, at);
  if (Array.isArray(value)) return arrayViolation(schema, value, field);
  if (actual === 'object') return objectViolation(schema, value as Record<string, unknown>, field);
  return undefined;
}

function numberViolation(schema: JsonSchema, value: number, at: (reason: string) => Violation) {
  if (schema.minimum !== undefined && value < schema.minimum) return at(`must be at least ${schema.minimum}`);
  if (schema.maximum !== undefined && value > schema.maximum) return at(`must be at most ${schema.maximum}`);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    return at(`must be greater than ${schema.exclusiveMinimum}`);
  }
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) {
    return at(`must be less than ${schema.exclusiveMaximum}`);
  }
  return undefined;
}

function stringViolation(schema: JsonSchema, value: string, at: (reason: string) => Violation) {
  const length = [...value].length;
  const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
  if (schema.minLength !== undefined && length < schema.minLength) {
    return at(`must be at least ${characters(schema.minLength)} long`);
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    return at(`must be at most ${characters(schema.maxLength)} long`);
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    return at(`must match /${schema.pattern}/`);
  }
  const format = schema.format === undefined ? undefined : FORMATS[schema.format];
  if (format && !format.test(value)) return at(format.reason);
  return undefined;
}

function arrayViolation(schema: JsonSchema, value: readonly unknown[], field: string) {
  const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    return { field, reason: `must have at least ${items(schema.minItems)}` };
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    return { field, reason: `must have at most ${items(schema.maxItems)}` };
  }
  if (schema.uniqueItems && value.some((item, i) => value.findIndex((other) => sameValue(other, item)) !== i)) {
    return { field, reason: 'must not repeat an item' };
  }
  if (!schema.items) return undefined;
  for (const [index, item] of value.entries()) {
    const violation = findViolation(schema.items, item, `${field}[${index}]`);
    if (violation) return violation;
  }
  return undefined;
}

function objectViolation(schema: JsonSchema, value: Record<string, unknown>, field: string) {
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) return { field: child(field, name), reason: 'is required' };
  }
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const property = Object.hasOwn(schema.properties ?? {}, name) ? schema.properties?.[name] : undefined;
    const rule = property ?? schema.additionalProperties;
    if (rule === false) return { field: child(field, name), reason: 'is not a known property' };
    if (rule === undefined || rule === true) continue;
    const violation = findViolation(rule, item, child(field, name));
    if (violation) return violation;
  }
  return undefined;
}
