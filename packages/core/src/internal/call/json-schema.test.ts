import { describe, expect, it } from 'vitest';
import { AgentApiError } from './errors.js';
import {
  findViolation,
  findViolations,
  type JsonSchema,
  patternRisk,
  unsupportedKeywords,
  VALUE_KEYWORDS,
} from './json-schema.js';
import { valueViolation } from './json-value.js';

const product: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 5 },
    price: { type: 'number', minimum: 0, exclusiveMaximum: 1000 },
    stock: { type: 'integer', exclusiveMinimum: -1 },
    status: { type: 'string', enum: ['available', 'disabled'] },
    sku: { type: ['string', 'null'], pattern: '^[A-Z]+-\\d+$' },
    kind: { const: 'physical' },
    updated: { type: 'string', format: 'date-time' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2, uniqueItems: true },
    images: {
      type: 'array',
      items: {
        type: 'object',
        properties: { url: { type: 'string', format: 'uri' } },
        required: ['url'],
        additionalProperties: false,
      },
    },
    'shipping-class': { type: 'string' },
    meta: { type: 'object', additionalProperties: { type: 'boolean' } },
  },
  required: ['name', 'price'],
  additionalProperties: false,
};

const valid = { name: 'Mug', price: 9.5 };

describe('findViolation', () => {
  it('accepts values that satisfy the schema, treating undefined properties as absent', () => {
    expect(findViolation(product, valid)).toBeUndefined();
    expect(
      findViolation(product, {
        ...valid,
        stock: 0,
        status: 'disabled',
        sku: null,
        kind: 'physical',
        updated: '2026-11-21T10:00:00+01:00',
        tags: ['a', 'b'],
        images: [{ url: 'https://example.com/a.png' }],
        'shipping-class': 'light',
        meta: { fragile: true },
        description: undefined,
      }),
    ).toBeUndefined();
    expect(findViolation(product, { ...valid, price: 3 }), 'an integer is a number').toBeUndefined();
  });

  it.each([
    [{ price: 1 }, 'arguments.name', 'is required'],
    [{ ...valid, price: '9' }, 'arguments.price', 'must be a number'],
    [{ ...valid, price: -1 }, 'arguments.price', 'must be at least 0'],
    [{ ...valid, price: 1000 }, 'arguments.price', 'must be less than 1000'],
    [{ ...valid, stock: 1.5 }, 'arguments.stock', 'must be an integer'],
    [{ ...valid, stock: -1 }, 'arguments.stock', 'must be greater than -1'],
    [{ ...valid, name: '' }, 'arguments.name', 'must be at least 1 character long'],
    [{ ...valid, name: 'Teapot' }, 'arguments.name', 'must be at most 5 characters long'],
    [{ ...valid, status: 'gone' }, 'arguments.status', 'must be one of "available", "disabled"'],
    [{ ...valid, sku: 7 }, 'arguments.sku', 'must be a string or null'],
    [{ ...valid, sku: 'mug-1' }, 'arguments.sku', 'must match /^[A-Z]+-\\d+$/'],
    [{ ...valid, kind: 'digital' }, 'arguments.kind', 'must be "physical"'],
    [{ ...valid, updated: '21/11/2026' }, 'arguments.updated', expect.stringMatching(/^must be a date-time/)],
    [{ ...valid, tags: [] }, 'arguments.tags', 'must have at least 1 item'],
    [{ ...valid, tags: ['a', 'b', 'c'] }, 'arguments.tags', 'must have at most 2 items'],
    [{ ...valid, tags: ['a', 'a'] }, 'arguments.tags', 'must not repeat an item'],
    [{ ...valid, tags: ['a', 2] }, 'arguments.tags[1]', 'must be a string'],
    [{ ...valid, images: [{ url: 'https://a.test/' }, {}] }, 'arguments.images[1].url', 'is required'],
    [{ ...valid, images: [{ url: '/relative.png' }] }, 'arguments.images[0].url', 'must be an absolute URI'],
    [
      { ...valid, images: [{ url: 'https://a.test/', alt: 'x' }] },
      'arguments.images[0].alt',
      'is not a known property',
    ],
    [{ ...valid, 'shipping-class': 3 }, 'arguments["shipping-class"]', 'must be a string'],
    [{ ...valid, meta: { fragile: 'yes' } }, 'arguments.meta.fragile', 'must be a boolean'],
    [{ ...valid, colour: 'red' }, 'arguments.colour', 'is not a known property'],
    [[valid], 'arguments', 'must be an object'],
  ])('%j breaks the schema at %s: %s', (value, field, reason) => {
    expect(findViolation(product, value)).toEqual({ field, reason });
  });

  it('counts characters, not UTF-16 units, for length bounds', () => {
    expect(findViolation({ type: 'string', maxLength: 2 }, '😀😀', 'arguments.q')).toBeUndefined();
    expect(findViolation({ type: 'string', maxLength: 1 }, '😀😀', 'arguments.q')).toEqual({
      field: 'arguments.q',
      reason: 'must be at most 1 character long',
    });
  });
});

describe('findViolations', () => {
  const broken = { name: '', price: -1, tags: [1, 2, 3], colour: 'red', images: [{}] };

  it('collects up to the limit, one per field, in document order', () => {
    expect(findViolations(product, broken, 5)).toEqual([
      { field: 'arguments.name', reason: 'must be at least 1 character long' },
      { field: 'arguments.price', reason: 'must be at least 0' },
      { field: 'arguments.tags', reason: 'must have at most 2 items' },
      { field: 'arguments.colour', reason: 'is not a known property' },
      { field: 'arguments.images[0].url', reason: 'is required' },
    ]);
    expect(findViolations(product, broken, 2)).toHaveLength(2);
    expect(findViolations(product, { name: 'Mug' }, 5)).toEqual([{ field: 'arguments.price', reason: 'is required' }]);
    expect(findViolations(product, valid, 5)).toEqual([]);
  });

  it('stops at the first with a limit of one, as findViolation does', () => {
    expect(findViolations(product, broken, 1)).toEqual([findViolation(product, broken)]);
    expect(findViolations(product, broken, 0)).toEqual([]);
  });
});

describe('allOf, anyOf and oneOf', () => {
  const address = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;
  const shipping: JsonSchema = {
    type: 'object',
    properties: {
      address: { allOf: [address, { properties: { postal: { type: 'string', maxLength: 5 } } }] },
      method: {
        oneOf: [
          { type: 'object', properties: { type: { enum: ['external'] }, url: { type: 'string' } }, required: ['type'] },
          { type: 'object', properties: { type: { enum: ['flat'] }, price: { type: 'number' } }, required: ['type'] },
        ],
      },
      code: { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 2 }] },
    },
  };

  it('checks every allOf branch at the same field', () => {
    expect(findViolation(shipping, { address: { city: 'Oslo', postal: '0150' } })).toBeUndefined();
    expect(findViolation(shipping, { address: { postal: '0150' } })).toEqual({
      field: 'arguments.address.city',
      reason: 'is required',
    });
    expect(findViolation(shipping, { address: { city: 'Oslo', postal: '0150-12' } })).toEqual({
      field: 'arguments.address.postal',
      reason: 'must be at most 5 characters long',
    });
  });

  it('needs one anyOf branch, and exactly one oneOf branch, saying why each missed', () => {
    expect(findViolation(shipping, { method: { type: 'flat', price: 5 }, code: 7 })).toBeUndefined();
    expect(findViolation(shipping, { code: 'x' })).toEqual({
      field: 'arguments.code',
      reason:
        'must match one of its 2 allowed shapes (1: arguments.code must be an integer; 2: arguments.code must be at least 2 characters long)',
    });
    expect(findViolation(shipping, { method: { type: 'free' } })?.reason).toMatch(
      /^must match one of its 2 allowed shapes \(1: arguments\.method\.type must be one of "external"; /,
    );
    const either: JsonSchema = { oneOf: [{ type: 'number' }, { type: 'integer' }] };
    expect(findViolation(either, 3)).toEqual({
      field: 'arguments',
      reason: 'must match only one of its 2 allowed shapes, matches 2',
    });
    expect(findViolation(either, 3.5)).toBeUndefined();
  });
});

describe('valueViolation', () => {
  it('judges the value alone, leaving the naming of the field to the caller', () => {
    expect(valueViolation({ type: 'integer', minimum: 1, maximum: 100 }, 101)).toBe('must be at most 100');
    expect(valueViolation({ type: 'boolean' }, 'yes')).toBe('must be a boolean');
    expect(valueViolation({ enum: ['a', 'b'] }, 'c')).toBe('must be one of "a", "b"');
    expect(valueViolation({ type: 'array' }, [1, 'two'])).toBeUndefined();
  });
});

describe('VALUE_KEYWORDS', () => {
  it('are keywords the check enforces, holding no subschema', () => {
    expect(
      unsupportedKeywords(Object.fromEntries(VALUE_KEYWORDS.map((keyword) => [keyword, 1])) as JsonSchema),
    ).toEqual([]);
    for (const structure of ['properties', 'items', 'allOf', 'anyOf', 'oneOf', 'additionalProperties', 'format']) {
      expect(VALUE_KEYWORDS).not.toContain(structure);
    }
  });
});

describe('unsupportedKeywords', () => {
  it('finds nothing in a schema made of the keywords it checks', () => {
    expect(unsupportedKeywords(product)).toEqual([]);
  });

  it('names each keyword and format it would not enforce, with its place', () => {
    const schema = {
      type: 'object',
      properties: {
        contact: { oneOf: [{ type: 'string' }, { type: 'integer', not: { const: 0 } }] },
        host: { type: 'string', format: 'ipv4' },
        list: { type: 'array', items: { type: 'string', contentEncoding: 'base64' } },
      },
      dependentRequired: { a: ['b'] },
    } as JsonSchema;
    expect(unsupportedKeywords(schema)).toEqual([
      'dependentRequired at arguments',
      'not at arguments.contact (oneOf[1])',
      'format "ipv4" at arguments.host',
      'contentEncoding at arguments.list[]',
    ]);
  });
});

describe('patterns that could backtrack catastrophically', () => {
  const evil = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } } as JsonSchema;

  it('are refused by the generator, with where and why', () => {
    expect(unsupportedKeywords(evil)).toEqual([
      'pattern /^(a+)+$/ at arguments.code (quantifies a group: it could backtrack catastrophically)',
    ]);
  });

  it('are never run: findViolation throws a typed error at once instead', () => {
    // Run, /^(a+)+$/ takes minutes on this string; refused, it takes no time.
    expect(() => findViolation(evil, { code: `${'a'.repeat(40)}!` })).toThrow(AgentApiError);
  });

  it.each([
    ['^[A-Z]+-\\d+$', undefined],
    ['^\\d{4}-\\d{2}-\\d{2}$', undefined],
    ['^[^@]+@[^@]+$', undefined],
    ['abc', undefined],
    ['^(a+)+$', 'quantifies a group'],
    ['(a|aa)*$', 'quantifies a group'],
    ['^\\d+\\d+$', 'has two unbounded quantifiers with nothing to tell them apart'],
    ['^.*x.*$', 'has two unbounded quantifiers with nothing to tell them apart'],
    ['a+b', 'has an unbounded quantifier but is not anchored with ^'],
    ['^a+|b+', 'has an unbounded quantifier and an alternation (|)'],
    ['(?=a)a', 'has a look-around'],
    ['(a)\\1', 'has a back-reference'],
    ['(', 'does not compile'],
  ])('%s: %s', (pattern, risk) => {
    expect(patternRisk(pattern)).toBe(risk);
  });
});

describe('property names from Object.prototype', () => {
  it('are not satisfied by inherited members', () => {
    const schema: JsonSchema = { type: 'object', required: ['constructor', 'toString'] };
    expect(findViolation(schema, {})).toEqual({ field: 'arguments.constructor', reason: 'is required' });
    expect(findViolation({ type: 'string', format: 'constructor' }, 'x')).toBeUndefined();
  });
});
