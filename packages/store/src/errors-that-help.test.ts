/**
 * Errors a store user meets in the first hour, end to end through the generated operations: a create missing a
 * required field is refused before sending; the store's validation messages and the URL requested are in the
 * message; a base URL without `/v1` gets a hint on its 404s.
 */
import { jsonResponse, scriptedFetch } from '@agent-apis/test-utils/fetch';
import { describe, expect, it } from 'vitest';
import { NotFoundError, RequestValidationError, StoreClient, UnprocessableEntityError } from './index.js';

const CREDENTIALS = { login: 'errors-login', authToken: 'errors-token' };

function storeAt(baseUrl: string, respond: (request: Request) => Response) {
  const server = scriptedFetch(respond);
  return {
    store: new StoreClient({ baseUrl, rateLimit: false, maxRetries: 0, ...CREDENTIALS, fetch: server.fetch }),
    server,
  };
}

describe('store errors that say what to do', () => {
  it('refuses a create without a required field, naming it, and sends nothing', async () => {
    const { store, server } = storeAt('https://api.store.test/v1', () => jsonResponse({}));
    const params = JSON.parse('{"price": 10}');
    const error = await store.products.create(params).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operation: 'createProduct', field: 'body.product.name', reason: 'is required' });
    expect(server.received).toHaveLength(0);
  });

  it("puts the store's validation messages and the URL into a 422's message", async () => {
    const { store } = storeAt('https://api.store.test/v1', () =>
      jsonResponse(
        { errors: { name: ['has already been taken'], price: ['must be greater than 0'] } },
        { status: 422 },
      ),
    );
    const error = await store.products.create({ name: 'Mug', price: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as Error).message).toBe(
      '422 Unprocessable Entity on createProduct (POST /products.json) at https://api.store.test/v1/products.json: name has already been taken; price must be greater than 0',
    );
  });

  it('hints at the missing /v1 when a base URL without it gets a 404', async () => {
    const { store, server } = storeAt('http://127.0.0.1:4011', () => new Response('Not Found', { status: 404 }));
    const error = await store.products.count().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(server.received[0]?.url).toBe('http://127.0.0.1:4011/products/count.json');
    expect((error as Error).message).toMatch(
      /the URL has no \/v1; the API lives under it, so the base URL probably needs it: http:\/\/127\.0\.0\.1:4011\/v1\)$/,
    );
  });
});
