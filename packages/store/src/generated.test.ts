import { finalSpecOperationIds } from '@agent-apis/codegen/final-spec';
import { jsonFetch, onlyRequest } from '@agent-apis/test-utils/fetch';
import { expectOneFunctionPerOperation } from '@agent-apis/test-utils/generated';
import { useMswServer } from '@agent-apis/test-utils/msw';
import { describe, expect, it } from 'vitest';
import { createStoreClient } from './client.js';
import * as functions from './gen/api.gen.js';
import { getMockHandlers } from './gen/msw.gen.js';
import { operations } from './gen/operations.gen.js';
import { validators } from './gen/validators.gen.js';

const BASE_URL = 'https://store.test/v1';
const BASIC = { login: 'store-login', authToken: 'api-token', rateLimit: false } as const;

describe('generated store code', () => {
  it('has one row in operations.gen.ts and one function in api.gen.ts per operation of the final spec (179)', async () => {
    const operationIds = expectOneFunctionPerOperation(await finalSpecOperationIds('store'), functions, operations);
    expect(operationIds).toHaveLength(179);
  });

  it('sends getProduct as GET /products/{id}.json with Basic auth, and resolves to the parsed body', async () => {
    const product = { product: { id: 42, name: 'Mug' } };
    const fetch = jsonFetch(product);
    const result = await functions.getProduct(createStoreClient({ ...BASIC, baseUrl: BASE_URL, fetch }), {
      path: { id: 42 },
    });
    const sent = onlyRequest(fetch);
    expect(sent.method).toBe(operations.getProduct.method);
    expect(sent.url).toBe(`${BASE_URL}/products/42.json`);
    expect(sent.headers.get('authorization')).toBe(`Basic ${btoa('store-login:api-token')}`);
    expect(result).toEqual(product);
  });

  describe('with the generated MSW handlers', () => {
    useMswServer(getMockHandlers());

    it('answers getProduct with a body that the generated zod schema accepts', async () => {
      const result = await functions.getProduct(createStoreClient({ ...BASIC, baseUrl: BASE_URL }), {
        path: { id: 42 },
      });
      expect(validators.getProduct.response.safeParse(result).error).toBeUndefined();
    });
  });
});
