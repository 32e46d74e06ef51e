/**
 * The rules of the one argument checker (`json-schema.ts`) that judge a value by itself: its type, `const`, `enum`,
 * numeric bounds, length and item counts. Apart so that the REST clients' input check (`input-check.ts`), whose rows
 * carry only these, loads them without the rest of the checker (patterns, formats, structure).
 */

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** The keywords that judge a value by itself: a REST parameter's row is made of them. */
export interface ValueRules {
  type?: JsonType | readonly JsonType[];
  enum?: readonly unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
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

function typeMatches(type: JsonType, actual: JsonType | 'other'): boolean {
  return type === actual || (type === 'number' && actual === 'integer');
}

/**
 * What is wrong with `value` under the value rules of `schema` (not its pattern or format, not what it holds): the
 * reason alone, phrased to follow a field name the caller gives.
 */
export function valueViolation(schema: ValueRules, value: unknown): string | undefined {
  const type = schema.type;
  if (type !== undefined) {
    const actual = typeOf(value);
    if (typeof type === 'string' ? !typeMatches(type, actual) : !type.some((each) => typeMatches(each, actual))) {
      const allowed: readonly JsonType[] = typeof type === 'string' ? [type] : type;
      return `must be ${allowed.map((each) => ARTICLE[each]).join(' or ')}`;
    }
  }
  if (schema.const !== undefined && !sameValue(schema.const, value)) return `must be ${JSON.stringify(schema.const)}`;
  if (schema.enum && !schema.enum.some((option) => sameValue(option, value))) {
    return `must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`;
  }
  if (typeof value === 'number') return numberViolation(schema, value);
  if (typeof value === 'string') return lengthViolation(schema, value);
  if (Array.isArray(value)) return arrayViolation(schema, value);
  return undefined;
}

function numberViolation(schema: ValueRules, value: number): string | undefined {
  if (schema.minimum !== undefined && value < schema.minimum) return `must be at least ${schema.minimum}`;
  if (schema.maximum !== undefined && value > schema.maximum) return `must be at most ${schema.maximum}`;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    return `must be greater than ${schema.exclusiveMinimum}`;
  }
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) {
    return `must be less than ${schema.exclusiveMaximum}`;
  }
  return undefined;
}

function lengthViolation(schema: ValueRules, value: string): string | undefined {
  if (schema.minLength === undefined && schema.maxLength === undefined) return undefined;
  const length = [...value].length;
  const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
  if (schema.minLength !== undefined && length < schema.minLength) {
    return `must be at least ${characters(schema.minLength)} long`;
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    return `must be at most ${characters(schema.maxLength)} long`;
  }
  return undefined;
}

function arrayViolation(schema: ValueRules, value: readonly unknown[]): string | undefined {
  const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    return `must have at least ${items(schema.minItems)}`;
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    return `must have at most ${items(schema.maxItems)}`;
  }
  if (schema.uniqueItems && value.some((item, i) => value.findIndex((other) => sameValue(other, item)) !== i)) {
    return 'must not repeat an item';
  }
  return undefined;
}
