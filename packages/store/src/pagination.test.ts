import { resetSharedRateLimiters } from '@agent-apis/core/call';
import { fetchStub, jsonResponse, sentRequests } from '@agent-apis/test-utils/fetch';
import { beforeEach, describe, expect, it } from 'vitest';
import { APIUserAbortError, RequestValidationError, StoreClient } from './index.js';
import { BASE_URL, BASIC } from './test-support.js';

/** `count` product records numbered from `from`, in the form the API lists them. */
function products(from: number, count: number) {
  return Array.from({ length: count }, (_, index) => ({ product: { id: from + index, name: `Item ${from + index}` } }));
}

/** A store holding `total` records, answering page/limit requests with slices of them. */
function catalogue(total: number) {
  return fetchStub((request) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit'));
    const page = Number(url.searchParams.get('page'));
    const from = (page - 1) * limit;
    return jsonResponse(products(from + 1, Math.max(0, Math.min(limit, total - from))));
  });
}

function queries(fetch: ReturnType<typeof fetchStub>): string[] {
  return sentRequests(fetch).map((request) => {
    const url = new URL(request.url);
    return `${url.pathname}${url.search}`;
  });
}

function storeClient(fetch: typeof globalThis.fetch) {
  return new StoreClient({ ...BASIC, baseUrl: BASE_URL, fetch, rateLimit: false });
}

beforeEach(() => resetSharedRateLimiters());

describe('products.list', () => {
  it('walks pages of 50 until a short page, yielding each record out of its envelope', async () => {
    const fetch = catalogue(120);
    const listed = [];
    for await (const record of storeClient(fetch).products.list()) listed.push(record);
    expect(listed).toEqual(products(1, 120).map((record) => record.product));
    expect(queries(fetch)).toEqual([
      '/v1/products.json?limit=50&page=1',
      '/v1/products.json?limit=50&page=2',
      '/v1/products.json?limit=50&page=3',
    ]);
  });

  it('ends on an empty page when the last page was full', async () => {
    const fetch = catalogue(4);
    const listed = await storeClient(fetch).products.list({ limit: 2 }).toArray({ max: 100 });
    expect(listed.map((record) => record.id)).toEqual([1, 2, 3, 4]);
    expect(queries(fetch)).toEqual([
      '/v1/products.json?limit=2&page=1',
      '/v1/products.json?limit=2&page=2',
      '/v1/products.json?limit=2&page=3',
    ]);
  });

  it('fetches only the pages needed for toArray({ max })', async () => {
    const fetch = catalogue(1_000);
    const first = await storeClient(fetch).products.list({ limit: 100, locale: 'es' }).toArray({ max: 150 });
    expect(first).toHaveLength(150);
    expect(queries(fetch)).toEqual([
      '/v1/products.json?limit=100&locale=es&page=1',
      '/v1/products.json?limit=100&locale=es&page=2',
    ]);
  });

  it('refuses a page size above 100 before sending anything', async () => {
    const fetch = catalogue(10);
    const error = await storeClient(fetch)
      .products.list({ limit: 101 })
      .toArray({ max: 10 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operation: 'listProducts', field: 'query.limit' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('fetches no further page once the signal aborts, and throws APIUserAbortError', async () => {
    const fetch = catalogue(1_000);
    const controller = new AbortController();
    const walk = async () => {
      for await (const record of storeClient(fetch).products.list({}, { signal: controller.signal })) {
        if (record.id === 60) controller.abort();
      }
    };
    const error = await walk().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).toMatchObject({ operation: 'listProducts' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('other listings', () => {
  it('lists orders with their filters, and customers and categories from their own endpoints', async () => {
    const fetch = fetchStub(() => jsonResponse([]));
    const client = storeClient(fetch);
    await client.orders.list({ 'status_filters[]': 'paid' }).toArray({ max: 10 });
    await client.customers.list().toArray({ max: 10 });
    await client.categories.list().toArray({ max: 10 });
    expect(queries(fetch)).toEqual([
      '/v1/orders.json?status_filters[]=paid&limit=50&page=1',
      '/v1/customers.json?limit=50&page=1',
      '/v1/categories.json?limit=50&page=1',
    ]);
  });

  it('paginate(operationId) walks any page/limit listing, path parameters included', async () => {
    const fetch = fetchStub((_request, index) => jsonResponse(index === 0 ? [{ product_review: {} }] : []));
    const reviews = await storeClient(fetch)
      .paginate('listProductReviews', { path: { id: 7 }, query: { limit: 1 } })
      .toArray({ max: 10 });
    expect(reviews).toEqual([{ product_review: {} }]);
    expect(queries(fetch)).toEqual([
      '/v1/products/7/reviews.json?limit=1&page=1',
      '/v1/products/7/reviews.json?limit=1&page=2',
    ]);
  });
});

describe('a listing page size no page can fall short of', () => {
  it('is refused with a RequestValidationError naming query.limit when the listing is made, before any request', () => {
    for (const limit of [0, -1, 2.5]) {
      const fetch = catalogue(10);
      let error: unknown;
      try {
        storeClient(fetch).products.list({ limit });
      } catch (thrown) {
        error = thrown;
      }
      // It was `TypeError: pageNumberCursor needs limit`, naming a function the caller never called.
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ operation: 'listProducts', field: 'query.limit' });
      expect(fetch).not.toHaveBeenCalled();
    }
  });

  it('is refused the same way by paginate(operationId)', () => {
    const fetch = catalogue(10);
    expect(() => storeClient(fetch).paginate('listProducts', { query: { limit: 0 } })).toThrow(RequestValidationError);
    expect(fetch).not.toHaveBeenCalled();
  });
});
