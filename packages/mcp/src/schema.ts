/**
 * A small JSON Schema checker for tool arguments. It implements the keywords the tool servers' input schemas use
 * (types, properties, required, additionalProperties, items, enum, const, numeric and length bounds, pattern and a
 * few formats), stops at the first violation, and names it the way `RequestValidationError` does: a field path such
 * as `arguments.images[0].url` and a reason that follows it. The generator refuses a schema with any other keyword
 * ({@link unsupportedKeywords}), so nothing in a pinned schema goes unchecked. No code generation at run time, so it
 * works where `eval` is forbidden.
 *
 * A `pattern` is run only when it cannot backtrack catastrophically ({@link patternRisk}): no quantified group, no
 * back-reference or look-around, at most one unbounded quantifier. Then a match costs time linear in the string,
 * whoever wrote the string. The generator refuses a pinned schema with any other pattern, and `findViolation`
 * throws on one instead of running it.
 */
import { AgentApiError } from '@agent-apis/core';

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

interface Atom {
  /** The atom's source: a character, an escape or a class. */
  text: string;
  /** Followed by `*`, `+` or `{n,}`. */
  unbounded: boolean;
  /** A plain character with no quantifier: what it matches, for telling it apart from its neighbours. */
  separator?: string;
}

const ESCAPE = /^\\(?:[pP]\{[^}]*\}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|[\s\S])/;
const QUANTIFIER = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/;

/**
 * Why `pattern` could take more than linear time on a hostile string, or undefined when it cannot. Refused: a
 * back-reference or look-around; a quantifier on a group; an unbounded quantifier (`*`, `+`, `{n,}`) in a pattern
 * not anchored with `^` or holding `|`; two unbounded quantifiers not parted by a plain character the first one
 * cannot match (`^[A-Z]+-\d+$` passes, `^\d+\d+$` does not); a pattern that does not compile. Conservative: some
 * harmless patterns are refused too.
 */
export function patternRisk(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'does not compile';
  }
  const atoms: Atom[] = [];
  let alternation = false;
  for (let i = 0; i < pattern.length; ) {
    const rest = pattern.slice(i);
    const char = rest[0] as string;
    let text: string;
    let plain: string | undefined;
    if (char === '\\') {
      if (/^\\(?:[1-9]|k<)/.test(rest)) return 'has a back-reference';
      text = ESCAPE.exec(rest)?.[0] ?? char;
      if (/^\\[^\w\s]$/.test(text)) plain = text.slice(1);
    } else if (char === '[') {
      let end = rest.startsWith('[^]') ? 3 : rest.startsWith('[]') || rest.startsWith('[^') ? 2 : 1;
      while (end < rest.length && rest[end] !== ']') end += rest[end] === '\\' ? 2 : 1;
      text = rest.slice(0, end + 1);
    } else if (char === '(') {
      if (/^\(\?(?:[=!]|<[=!])/.test(rest)) return 'has a look-around';
      i += /^\((?:\?:|\?<[^>]*>)?/.exec(rest)?.[0].length ?? 1;
      continue;
    } else if (char === ')') {
      if (QUANTIFIER.test(rest.slice(1))) return 'quantifies a group';
      i++;
      continue;
    } else if (char === '|' || char === '^' || char === '$') {
      if (char === '|') alternation = true;
      i++;
      continue;
    } else {
      text = char;
      if (char !== '.') plain = char;
    }
    i += text.length;
    const quantifier = QUANTIFIER.exec(pattern.slice(i))?.[0];
    if (quantifier) i += quantifier.length;
    const unbounded = quantifier !== undefined && /^(?:[*+]|\{\d+,\})/.test(quantifier);
    atoms.push({ text, unbounded, ...(quantifier === undefined && plain !== undefined ? { separator: plain } : {}) });
  }
  const unboundedAt = atoms.flatMap((atom, index) => (atom.unbounded ? [index] : []));
  if (unboundedAt.length === 0) return undefined;
  if (!pattern.startsWith('^')) return 'has an unbounded quantifier but is not anchored with ^';
  if (alternation) return 'has an unbounded quantifier and an alternation (|)';
  for (let k = 1; k < unboundedAt.length; k++) {
    const [from, to] = [unboundedAt[k - 1] as number, unboundedAt[k] as number];
    const first = new RegExp(`^(?:${(atoms[from] as Atom).text})$`, 'u');
    const parted = atoms
      .slice(from + 1, to)
      .some((atom) => atom.separator !== undefined && !first.test(atom.separator));
    if (!parted) return 'has two unbounded quantifiers with nothing to tell them apart';
  }
  return undefined;
}

/** Keywords (and formats) in `schema` this checker would not enforce, with where they are. Empty when all is known. */
export function unsupportedKeywords(schema: JsonSchema, field = 'arguments'): string[] {
  const found: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (!CHECKED.has(keyword) && !ANNOTATIONS.has(keyword)) found.push(`${keyword} at ${field}`);
    if (keyword === 'format' && !Object.hasOwn(FORMATS, String(value))) found.push(`format "${value}" at ${field}`);
    const risk = keyword === 'pattern' ? patternRisk(String(value)) : undefined;
    if (risk) found.push(`pattern /${value}/ at ${field} (${risk}: it could backtrack catastrophically)`);
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
  if (schema.pattern !== undefined) {
    const risk = patternRisk(schema.pattern);
    if (risk) {
      throw new AgentApiError(
        `The schema's pattern /${schema.pattern}/ ${risk}, so it could backtrack catastrophically; it is not run`,
      );
    }
    if (!new RegExp(schema.pattern, 'u').test(value)) return at(`must match /${schema.pattern}/`);
  }
  const format =
    schema.format !== undefined && Object.hasOwn(FORMATS, schema.format) ? FORMATS[schema.format] : undefined;
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
    // Own properties only: a required `constructor` is not satisfied by Object.prototype's.
    if (!Object.hasOwn(value, name) || value[name] === undefined)
      return { field: child(field, name), reason: 'is required' };
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
