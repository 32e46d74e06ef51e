import { thrownBy } from '@agent-apis/test-utils/errors';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from './errors.js';
import { callHeaders, jsonBody, serializeQuery } from './wire-encoding.js';

const thrown = (run: () => unknown): RequestValidationError => thrownBy(run, RequestValidationError);

describe('serializeQuery', () => {
  it('repeats exploded arrays, joins the others, spells objects as name[key] and skips undefined', () => {
    const query = serializeQuery(
      { ids: { required: false, type: 'array', explode: false }, tags: { required: false, type: 'array' } },
      { ids: [1, 2], tags: ['a b', 'c'], filter: { status: 'paid' }, skip: undefined },
    );
    expect(query).toBe('?ids=1%2C2&tags=a%20b&tags=c&filter[status]=paid');
  });
});

describe('callHeaders', () => {
  it('keeps the headers of a record (undefined left out, numbers as text), of pairs and of a Headers', () => {
    expect([...callHeaders({ 'x-a': '1', 'x-n': 2, 'x-skip': undefined }, 'op')]).toEqual([
      ['x-a', '1'],
      ['x-n', '2'],
    ]);
    expect([
      ...callHeaders(
        [
          ['x-b', '1'],
          ['x-b', '2'],
        ],
        'op',
      ),
    ]).toEqual([['x-b', '1, 2']]);
    expect([...callHeaders(new Headers({ 'x-c': '3' }), 'op')]).toEqual([['x-c', '3']]);
  });

  it.each([
    ['a line feed', 'Bearer s3cret-value\nx'],
    ['a carriage return', 'Bearer s3cret-value\rx'],
    ['a NUL', 'Bearer s3cret-value\0x'],
    ['a character past U+00FF', 'Bearer s3cret-value\u2028'],
  ])('refuses a value holding %s naming the header, never quoting the value', (_label, value) => {
    for (const headers of [{ authorization: value }, [['authorization', value]] as [string, string][]]) {
      const error = thrown(() => callHeaders(headers, 'listProducts'));
      expect(error).toMatchObject({ operation: 'listProducts', field: 'headers.authorization' });
      expect(error.message).not.toContain('s3cret');
    }
  });

  it('refuses a name that is no token without showing it', () => {
    const badName = thrown(() => callHeaders({ 'authorization: Bearer s3cret': 'x' }, () => 'GET /x'));
    expect(badName).toMatchObject({ operation: 'GET /x', field: 'headers' });
    expect(badName.message).not.toContain('s3cret');
  });
});

function throwing(error: Error): never {
  throw error;
}

describe('jsonBody', () => {
  it('encodes what JSON can', () => {
    expect(jsonBody({ product: { name: 'a', price: 1 } }, 'createProduct')).toBe('{"product":{"name":"a","price":1}}');
  });

  it('refuses a BigInt, a cycle, a toJSON that throws and a body that encodes to nothing, naming body', () => {
    const cycle: Record<string, unknown> = { name: 'a' };
    cycle.self = cycle;
    const failing = new Error('toJSON failed');
    const cases: [unknown, (cause: unknown) => void][] = [
      [{ price: 1n }, (cause) => expect(cause).toBeInstanceOf(TypeError)],
      [cycle, (cause) => expect(cause).toBeInstanceOf(TypeError)],
      [{ toJSON: () => throwing(failing) }, (cause) => expect(cause).toBe(failing)],
      [Symbol('body'), (cause) => expect(cause).toBeUndefined()],
    ];
    for (const [body, checkCause] of cases) {
      const error = thrown(() => jsonBody(body, 'createProduct'));
      expect(error).toMatchObject({
        operation: 'createProduct',
        field: 'body',
        reason: 'cannot be encoded as JSON (a BigInt, a cycle, a function, …)',
      });
      checkCause(error.cause);
    }
  });
});
