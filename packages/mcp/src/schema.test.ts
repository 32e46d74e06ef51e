import { AgentApiError } from '@agent-apis/core';
import { describe, expect, it } from 'vitest';
import { findViolation, type JsonSchema, patternRisk, unsupportedKeywords } from './schema.js';

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

describe('unsupportedKeywords', () => {
  it('finds nothing in a schema made of the keywords it checks', () => {
    expect(unsupportedKeywords(product)).toEqual([]);
  });

  it('names each keyword and format it would not enforce, with its place', () => {
    const schema = {
      type: 'object',
      properties: {
        contact: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        host: { type: 'string', format: 'ipv4' },
        list: { type: 'array', items: { type: 'string', contentEncoding: 'base64' } },
      },
      dependentRequired: { a: ['b'] },
    } as JsonSchema;
    expect(unsupportedKeywords(schema)).toEqual([
      'dependentRequired at arguments',
      'oneOf at arguments.contact',
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
