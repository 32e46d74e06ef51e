import { expectOneSdkFunctionPerOperation, jsonFetch, onlyRequest } from '@agent-apis/codegen/testing';
import { useMswServer } from '@agent-apis/test-utils/msw';
import { describe, expect, it } from 'vitest';
import { getMockHandlers } from './gen/msw.gen.js';
import { operations } from './gen/operations.gen.js';
import { type Auth, createClient, createConfig } from './gen/sdk/client/index.gen.js';
import * as sdk from './gen/sdk/sdk.gen.js';
import { validators } from './gen/validators.gen.js';

const BASE_URL = 'https://store.test/v1';

describe('generated store SDK', () => {
  it('has one function per operation of the final spec (179), each listed in operations.gen.ts', async () => {
    const operationIds = await expectOneSdkFunctionPerOperation('store', sdk, operations);
    expect(operationIds).toHaveLength(179);
  });

  it('sends getProduct as GET /products/{id}.json with only Basic auth, and resolves to the parsed body', async () => {
    const product = { product: { id: 42, name: 'Mug' } };
    const fetch = jsonFetch(product);
    const client = createClient(createConfig({ baseUrl: BASE_URL, fetch, throwOnError: true }));
    // hey-api offers every security alternative to the callback: answering only for Basic keeps the
    // login/authtoken query-parameter alternative out of the URL.
    const basicOnly = (scheme: Auth) => (scheme.scheme === 'basic' ? 'store-login:api-token' : undefined);

    const result = await sdk.getProduct({ client, path: { id: 42 }, auth: basicOnly });

    const sent = onlyRequest(fetch);
    expect(operations.getProduct).toMatchObject({ method: 'GET', path: '/products/{id}.json' });
    expect(sent.method).toBe('GET');
    expect(sent.url).toBe(`${BASE_URL}/products/42.json`);
    expect(sent.headers.get('authorization')).toBe(`Basic ${btoa('store-login:api-token')}`);
    expect(result).toEqual(product);
  });

  describe('with the generated MSW handlers', () => {
    useMswServer(getMockHandlers());

    it('answers getProduct with a body that the generated zod schema accepts', async () => {
      const client = createClient(createConfig({ baseUrl: BASE_URL, throwOnError: true }));
      const result = await sdk.getProduct({ client, path: { id: 42 } });
      expect(validators.getProduct.response.safeParse(result).error).toBeUndefined();
    });
  });
});
