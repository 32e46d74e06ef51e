import { createProduct, getProduct, listProducts } from '@agent-apis/test-utils/operation-fixtures';
import { operationMatcher } from '@agent-apis/test-utils/operation-requests';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiPromise } from './api-promise.js';
import { bindOperations, sendOperation } from './api-promise.js';
import type { OperationClient } from './operations.js';

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
  it('sends each row of the table through client.request directly, typed by the generated functions', async () => {
    const sent: unknown[] = [];
    const client: OperationClient = {
      request: async (operation, options) => {
        sent.push([operation.id, options]);
        return { data: { id: 1 }, response: new Response(null, { headers: { 'x-request-id': 'r1' } }) };
      },
    };
    const row = { id: 'getProduct', ...getProduct } as const;
    const functions = {
      getProduct: (on: OperationClient, options: { path: { id: number }; timeout?: number }) =>
        sendOperation<{ id: number }>(on, row, options),
    };
    const bound = bindOperations<typeof functions, { getProduct: typeof row }>({ getProduct: row }, client);
    expect(await bound.getProduct({ path: { id: 1 }, timeout: 500 })).toEqual({ id: 1 });
    const { data, response } = await bound.getProduct({ path: { id: 1 } }).withResponse();
    expect(data).toEqual({ id: 1 });
    expect(response.headers.get('x-request-id')).toBe('r1');
    expect((await bound.getProduct({ path: { id: 2 } }).asResponse()).headers.get('x-request-id')).toBe('r1');
    expect(sent).toEqual([
      ['getProduct', { path: { id: 1 }, timeout: 500 }],
      ['getProduct', { path: { id: 1 } }],
      ['getProduct', { path: { id: 2 } }],
    ]);
    expectTypeOf(bound.getProduct).returns.toEqualTypeOf<ApiPromise<{ id: number }>>();
    expectTypeOf(bound.getProduct).returns.resolves.toEqualTypeOf<{ id: number }>();
    expectTypeOf<Parameters<typeof bound.getProduct>[0]>().toHaveProperty('path');
  });
});
