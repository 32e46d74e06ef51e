/**
 * Request bounds in drift: narrowing what an operation accepts (a maximum, maxItems or maxLength added or lowered,
 * a minimum or minItems raised) is breaking, because a request the clients send today may be refused. Widening a
 * bound, or any bound on a response, breaks nobody.
 */
import { describe, expect, it } from 'vitest';
import { bumpFor, classifyChanges, type SpecChange } from './drift-classify.ts';
import type { OpenApiDocument } from './openapi.ts';

// biome-ignore lint/suspicious/noExplicitAny: fixtures edit raw documents
type Raw = any;

/** One listing with a `page` parameter and a response, one create operation with a JSON body. */
function api(): Raw {
  return {
    openapi: '3.1.0',
    info: { title: 'bounds', version: '1' },
    paths: {
      '/items': {
        get: {
          parameters: [{ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } }],
          responses: {
            '200': {
              description: 'OK',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
                },
              },
            },
          },
        },
        post: {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['tags'],
                  properties: {
                    name: { type: 'string' },
                    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 10 },
                  },
                },
              },
            },
          },
          responses: { '201': { description: 'Created' } },
        },
      },
    },
  };
}

async function changed(edit: (document: Raw) => void): Promise<SpecChange[]> {
  const after = api();
  edit(after);
  return classifyChanges(api() as OpenApiDocument, after as OpenApiDocument);
}

const get = (document: Raw) => document.paths['/items'].get;
const body = (document: Raw) => document.paths['/items'].post.requestBody.content['application/json'].schema;

describe('request bounds narrowed: breaking (major)', () => {
  it.each([
    [
      'a maximum added on a query parameter',
      (d: Raw) => Object.assign(get(d).parameters[0].schema, { maximum: 100 }),
      'GET /items query parameter page (maximum)',
      'added',
    ],
    [
      'a minimum raised on a query parameter',
      (d: Raw) => Object.assign(get(d).parameters[0].schema, { minimum: 2 }),
      'GET /items query parameter page (minimum)',
      'changed 1 → 2',
    ],
    [
      'a maxLength added on a body field',
      (d: Raw) => Object.assign(body(d).properties.name, { maxLength: 40 }),
      'POST /items request body application/json body field name (maxLength)',
      'added',
    ],
    [
      'a maxItems lowered on a body field',
      (d: Raw) => Object.assign(body(d).properties.tags, { maxItems: 5 }),
      'POST /items request body application/json body field tags (maxItems)',
      'changed 10 → 5',
    ],
    [
      'a minItems raised on a body field',
      (d: Raw) => Object.assign(body(d).properties.tags, { minItems: 2 }),
      'POST /items request body application/json body field tags (minItems)',
      'changed 1 → 2',
    ],
  ] as const)('%s', async (_title, edit, where, detail) => {
    const changes = await changed(edit);
    expect(changes).toEqual([
      { kind: 'breaking', where, detail: expect.stringMatching(/^narrows what the request accepts/) },
    ]);
    expect(changes[0]?.detail.endsWith(`: ${detail}`)).toBe(true);
    expect(bumpFor(changes)).toBe('major');
  });
});

describe('bounds widened, or on a response: not breaking', () => {
  it.each([
    [
      'a maxItems raised on a body field',
      (d: Raw) => Object.assign(body(d).properties.tags, { maxItems: 50 }),
      'patch',
    ],
    ['a maxItems removed from a body field', (d: Raw) => delete body(d).properties.tags.maxItems, 'patch'],
    [
      'a minimum lowered on a query parameter',
      (d: Raw) => Object.assign(get(d).parameters[0].schema, { minimum: 0 }),
      'patch',
    ],
    [
      'a maxLength added on a response field',
      (d: Raw) =>
        Object.assign(get(d).responses['200'].content['application/json'].schema.items.properties.name, {
          maxLength: 40,
        }),
      'minor',
    ],
    [
      'an optional body field called maximum added',
      (d: Raw) => Object.assign(body(d).properties, { maximum: { type: 'integer' } }),
      'minor',
    ],
  ] as const)('%s', async (_title, edit, bump) => {
    const changes = await changed(edit);
    expect(changes).toHaveLength(1);
    expect(changes.some((change) => change.kind === 'breaking')).toBe(false);
    expect(bumpFor(changes)).toBe(bump);
  });
});
