import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { RequestValidationError } from './errors.js';
import { REQUEST_OPTION_HEADERS } from './fetch.js';
import { bindOperations, type OperationShape, operationMatcher, validateOperationInput } from './operations.js';

const listProducts = {
  method: 'GET',
  path: '/products.json',
  pathParams: [],
  query: {
    limit: { required: false, type: 'integer', minimum: 1, maximum: 100 },
    status: { required: false, type: 'string', enum: ['available', 'disabled'] },
    q: { required: true, type: 'string' },
  },
  bodyRequired: false,
} as const satisfies OperationShape;

const getProduct = {
  method: 'GET',
  path: '/products/{id}.json',
  pathParams: ['id'],
  query: {},
  bodyRequired: false,
} as const satisfies OperationShape;

const createProduct = {
  method: 'POST',
  path: '/products.json',
  pathParams: [],
  query: {},
  bodyRequired: true,
} as const satisfies OperationShape;

function refusal(run: () => void): RequestValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    return error as RequestValidationError;
  }
  throw new Error('expected a RequestValidationError');
}

describe('validateOperationInput', () => {
  it('accepts inputs within the constraints', () => {
    expect(() =>
      validateOperationInput('listProducts', listProducts, { query: { q: 'x', limit: 100, status: 'disabled' } }),
    ).not.toThrow();
    expect(() => validateOperationInput('getProduct', getProduct, { path: { id: 7 } })).not.toThrow();
  });

  it.each([
    [{ query: { q: 'x', limit: 0 } }, 'query.limit', 'must be at least 1, got 0'],
    [{ query: { q: 'x', limit: 101 } }, 'query.limit', 'must be at most 100, got 101'],
    [{ query: { q: 'x', limit: 2.5 } }, 'query.limit', 'must be an integer, got 2.5'],
    [{ query: { q: 'x', limit: '10' } }, 'query.limit', 'must be an integer, got "10"'],
    [{ query: { q: 'x', status: 'gone' } }, 'query.status', 'must be one of "available", "disabled", got "gone"'],
    [{ query: {} }, 'query.q', 'is required'],
    [{}, 'query.q', 'is required'],
  ])('refuses %j naming %s', (input, field, reason) => {
    const error = refusal(() => validateOperationInput('listProducts', listProducts, input));
    expect(error.field).toBe(field);
    expect(error.reason).toBe(reason);
    expect(error.operation).toBe('listProducts');
    expect(error.message).toBe(`Invalid request for listProducts: ${field} ${reason}`);
  });

  it('requires path parameters and a required body', () => {
    expect(refusal(() => validateOperationInput('getProduct', getProduct, {})).field).toBe('path.id');
    expect(refusal(() => validateOperationInput('getProduct', getProduct, { path: { id: '' } })).field).toBe('path.id');
    expect(refusal(() => validateOperationInput('getProduct', getProduct, { path: { id: {} } })).reason).toMatch(
      /string or a number/,
    );
    expect(refusal(() => validateOperationInput('createProduct', createProduct, {})).field).toBe('body');
  });
});

describe('operationMatcher', () => {
  const match = operationMatcher({
    listProducts,
    getProduct,
    createProduct,
    countProducts: { method: 'GET', path: '/products/count.json' },
  });

  it('names the operation behind a base path, preferring literal paths over templates', () => {
    expect(match(new Request('https://api.test/v1/products/12.json'))).toEqual({
      id: 'getProduct',
      route: 'GET /products/{id}.json',
    });
    expect(match(new Request('https://api.test/v1/products/count.json'))?.id).toBe('countProducts');
    expect(match(new Request('https://api.test/v1/products.json?page=2', { method: 'POST' }))?.id).toBe(
      'createProduct',
    );
    expect(match(new Request('https://api.test/v1/orders.json'))).toBeUndefined();
  });
});

describe('bindOperations', () => {
  it('binds each SDK function to the client, validates first and passes per-call options as headers', async () => {
    const sdk = {
      listProducts: vi.fn(async (options: { query?: { q: string }; headers?: Record<string, string> }) => ({
        received: options,
      })),
      getProduct: vi.fn(async (_options: { path: { id: number } }) => ({})),
      createProduct: vi.fn(async (_options: { body: unknown }) => ({})),
    };
    const client = { name: 'configured client' };
    const bound = bindOperations(sdk, { listProducts, getProduct, createProduct }, client);

    await bound.listProducts({ query: { q: 'shoes' }, timeout: 500, maxRetries: 0, headers: { 'x-trace': '1' } });
    expect(sdk.listProducts).toHaveBeenCalledWith({
      query: { q: 'shoes' },
      client,
      headers: {
        'x-trace': '1',
        [REQUEST_OPTION_HEADERS.timeout]: '500',
        [REQUEST_OPTION_HEADERS.maxRetries]: '0',
        [REQUEST_OPTION_HEADERS.operation]: 'listProducts GET /products.json',
      },
    });

    await expect(bound.getProduct({ path: { id: '' as unknown as number } })).rejects.toThrow(
      'Invalid request for getProduct: path.id is required',
    );
    expect(sdk.getProduct).not.toHaveBeenCalled();
  });

  it('types each bound call as the throwing form of the generated function, without the options the client fixes', () => {
    // The shape hey-api generates: generic in ThrowOnError, resolving with `T | undefined` unless it is true.
    type Result<T, ThrowOnError extends boolean> = ThrowOnError extends true ? Promise<T> : Promise<T | undefined>;
    interface GeneratedOptions<ThrowOnError extends boolean> {
      client?: unknown;
      auth?: string;
      security?: unknown[];
      throwOnError?: ThrowOnError;
      responseStyle?: 'data' | 'fields';
      headers?: Record<string, string>;
    }
    const generated = {
      getProduct: <ThrowOnError extends boolean = true>(
        _options: GeneratedOptions<ThrowOnError> & { path: { id: number } },
      ): Result<{ id: number }, ThrowOnError> => Promise.resolve({ id: 1 }),
      createProduct: <ThrowOnError extends boolean = true>(
        _options: GeneratedOptions<ThrowOnError> & { body: unknown },
      ): Result<{ id: number } | undefined, ThrowOnError> => Promise.resolve(undefined),
    };
    const bound = bindOperations(generated, { getProduct, createProduct }, {});

    expectTypeOf(bound.getProduct).returns.toEqualTypeOf<Promise<{ id: number }>>();
    expectTypeOf(bound.createProduct).returns.toEqualTypeOf<Promise<{ id: number } | undefined>>();
    type GetOptions = Parameters<typeof bound.getProduct>[0];
    expectTypeOf<GetOptions>().toHaveProperty('path');
    expectTypeOf<GetOptions>().toHaveProperty('timeout');
    expectTypeOf<GetOptions>().toHaveProperty('headers');
    expectTypeOf<GetOptions>().not.toHaveProperty('client');
    expectTypeOf<GetOptions>().not.toHaveProperty('auth');
    expectTypeOf<GetOptions>().not.toHaveProperty('security');
    expectTypeOf<GetOptions>().not.toHaveProperty('throwOnError');
    expectTypeOf<GetOptions>().not.toHaveProperty('responseStyle');
  });

  it('refuses an operations table that names a function the SDK lacks', () => {
    expect(() => bindOperations({}, { getProduct }, {})).toThrow('the SDK has no function for operation "getProduct"');
  });
});
