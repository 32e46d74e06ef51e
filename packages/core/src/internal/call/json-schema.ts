/**
 * The one argument checker of the house: a JSON Schema subset, run on a REST call's path and query values
 * (`input-check.ts`), on the arguments of the MCP tool clients (`@agent-apis/mcp`) and of the tool server
 * (`@agent-apis/mcp-server`). It knows types, properties, required, additionalProperties, items, enum, const, numeric
 * and length bounds, pattern, a few formats and allOf/anyOf/oneOf, and names a violation the way
 * `RequestValidationError` does: a field path such as `arguments.images[0].url` or `query.limit`, and a reason that
 * follows it. {@link findViolation} stops at the first; {@link findViolations} collects up to a limit. No code
 * generation at run time, so it works where `eval` is forbidden.
 *
 * Its keyword list is the allow-list of every schema the house emits or pins: codegen's tool schemas keep only
 * {@link VALUE_KEYWORDS} (besides the structure it rebuilds), and the MCP clients' generator refuses a pinned schema
 * with anything {@link unsupportedKeywords} names, so nothing in a schema goes unchecked.
 *
 * A `pattern` is run only when it cannot backtrack catastrophically ({@link patternRisk}): no quantified group, no
 * back-reference or look-around, at most one unbounded quantifier. Then a match costs time linear in the string,
 * whoever wrote the string. The generator refuses a pinned schema with any other pattern, and the check throws on
 * one instead of running it.
 */

import { AgentApiError } from './errors.js';
import { type JsonType, type ValueRules, valueViolation } from './json-value.js';

export type { JsonType };

/** The JSON Schema subset this checker implements. */
export interface JsonSchema extends ValueRules {
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  allOf?: readonly JsonSchema[];
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
  pattern?: string;
  format?: string;
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

/** The keywords that constrain a value by themselves, holding no subschema: what a generator may copy as they are. */
export const VALUE_KEYWORDS = [
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
] as const;

/** Every keyword the check reads: the value keywords, `format` and those that hold the schema's structure. */
const CHECKED: ReadonlySet<string> = new Set([
  ...VALUE_KEYWORDS,
  'format',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'allOf',
  'anyOf',
  'oneOf',
]);

/** Keywords that only document a schema. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$schema', '$comment', 'deprecated']);

const CHOICES = ['anyOf', 'oneOf'] as const;
const COMPOSITIONS = ['allOf', ...CHOICES] as const;

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
  for (const keyword of COMPOSITIONS) {
    for (const [index, branch] of (schema[keyword] ?? []).entries()) {
      found.push(...unsupportedKeywords(branch, `${field} (${keyword}[${index}])`));
    }
  }
  return found;
}

/** The first way `value` breaks `schema`, or undefined when it satisfies it. Properties set to `undefined` are absent. */
export function findViolation(schema: JsonSchema, value: unknown, field = 'arguments'): Violation | undefined {
  const found: Violation[] = [];
  visit(schema, value, field, found, 1);
  return found[0];
}

/**
 * Up to `limit` ways `value` breaks `schema` (empty when it satisfies it), in document order: at most one per field,
 * the first rule it breaks there.
 */
export function findViolations(schema: JsonSchema, value: unknown, limit: number, field = 'arguments'): Violation[] {
  const found: Violation[] = [];
  if (limit > 0) visit(schema, value, field, found, limit);
  return found;
}

/** Adds the ways `value` breaks `schema` at `field` to `found`, until it holds `limit`. */
function visit(schema: JsonSchema, value: unknown, field: string, found: Violation[], limit: number): void {
  const reason = ownViolation(schema, value);
  if (reason !== undefined) {
    found.push({ field, reason });
    return;
  }
  if (Array.isArray(value)) {
    if (schema.items) {
      for (let index = 0; index < value.length && found.length < limit; index++) {
        visit(schema.items, value[index], `${field}[${index}]`, found, limit);
      }
    }
  } else if (value !== null && typeof value === 'object') {
    visitObject(schema, value as Record<string, unknown>, field, found, limit);
  }
  if (schema.allOf) {
    for (const branch of schema.allOf) if (found.length < limit) visit(branch, value, field, found, limit);
  }
  for (const keyword of CHOICES) {
    const choices = schema[keyword];
    if (!choices || found.length >= limit) continue;
    const misses = choices.map((branch) => findViolation(branch, value, field));
    const matches = misses.filter((miss) => miss === undefined).length;
    if (matches === 0) {
      const why = misses.map((miss, index) => `${index + 1}: ${miss?.field} ${miss?.reason}`).join('; ');
      found.push({ field, reason: `must match one of its ${choices.length} allowed shapes (${why})` });
    } else if (matches > 1 && keyword === 'oneOf') {
      found.push({ field, reason: `must match only one of its ${choices.length} allowed shapes, matches ${matches}` });
    }
  }
}

/** What is wrong with `value` itself: the value rules (`json-value.ts`), then its pattern and format. */
function ownViolation(schema: JsonSchema, value: unknown): string | undefined {
  const reason = valueViolation(schema, value);
  if (reason !== undefined || typeof value !== 'string') return reason;
  if (schema.pattern !== undefined) {
    const risk = patternRisk(schema.pattern);
    if (risk) {
      throw new AgentApiError(
        `The schema's pattern /${schema.pattern}/ ${risk}, so it could backtrack catastrophically; it is not run`,
      );
    }
    if (!new RegExp(schema.pattern, 'u').test(value)) return `must match /${schema.pattern}/`;
  }
  const format =
    schema.format !== undefined && Object.hasOwn(FORMATS, schema.format) ? FORMATS[schema.format] : undefined;
  return format && !format.test(value) ? format.reason : undefined;
}

function visitObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  field: string,
  found: Violation[],
  limit: number,
): void {
  for (const name of schema.required ?? []) {
    // Own properties only: a required `constructor` is not satisfied by Object.prototype's.
    if (found.length >= limit) return;
    if (!Object.hasOwn(value, name) || value[name] === undefined) {
      found.push({ field: child(field, name), reason: 'is required' });
    }
  }
  if (schema.properties === undefined && schema.additionalProperties === undefined) return;
  for (const [name, item] of Object.entries(value)) {
    if (found.length >= limit) return;
    if (item === undefined) continue;
    const property = Object.hasOwn(schema.properties ?? {}, name) ? schema.properties?.[name] : undefined;
    const rule = property ?? schema.additionalProperties;
    if (rule === false) found.push({ field: child(field, name), reason: 'is not a known property' });
    else if (rule !== undefined && rule !== true) visit(rule, item, child(field, name), found, limit);
  }
}
