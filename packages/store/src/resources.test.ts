import { resetSharedRateLimiters } from '@agent-apis/core/call';
import { fetchStub, jsonResponse, sentRequests } from '@agent-apis/test-utils/fetch';
import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { operations } from './gen/operations.gen.js';
import { resourceTable } from './gen/resources.gen.js';
import {
  type ProductCreateParams,
  type ProductCreateResult,
  type ProductFields,
  type ProductUpdateParams,
  RequestValidationError,
  ResponseParseError,
  StoreClient,
} from './index.js';
import { BASE_URL, BASIC } from './test-support.js';

type Node = { readonly [name: string]: Node | readonly unknown[] };

/** `products.variants.create` → operationId, for every row of the table. */
function rows(node: Node, prefix: string[] = []): [string, string][] {
  return Object.entries(node).flatMap(([name, value]) =>
    Array.isArray(value) ? [[[...prefix, name].join('.'), value[0] as string]] : rows(value as Node, [...prefix, name]),
  );
}

function storeClient(respond: Parameters<typeof fetchStub>[0]) {
  const fetch = fetchStub(respond);
  return { fetch, store: new StoreClient({ ...BASIC, baseUrl: BASE_URL, fetch, rateLimit: false }) };
}

/** Follows `products.variants.create` from the client. */
function methodAt(store: StoreClient, where: string): unknown {
  return where.split('.').reduce<unknown>((node, name) => (node as Record<string, unknown>)[name], store);
}

beforeEach(() => resetSharedRateLimiters());

/** The names of `holder`'s members not made yet (still their first-read accessor). */
function unmade(holder: object): string[] {
  return Object.entries(Object.getOwnPropertyDescriptors(holder))
    .filter(([, descriptor]) => descriptor.get !== undefined)
    .map(([name]) => name)
    .sort();
}

describe('the resources of a new client', () => {
  it('are made on first read and kept: the constructor makes none, a read makes only what it reaches', () => {
    const { store } = storeClient(() => jsonResponse({}));
    expect(unmade(store)).toEqual([...Object.keys(resourceTable), 'api'].sort());
    const get = store.products.get;
    expect(store.products.get).toBe(get);
    expect(unmade(store)).not.toContain('products');
    expect(unmade(store.products)).toEqual(
      Object.keys(resourceTable.products)
        .filter((name) => name !== 'get')
        .sort(),
    );
    expect(Object.getOwnPropertyDescriptor(store.products, 'get')).toMatchObject({ value: get, enumerable: true });
  });

  it('enumerate every resource and method, send from a method called alone or a frozen client, keep a value written first', async () => {
    const { fetch, store } = storeClient(() => jsonResponse({ product: { id: 42 } }));
    expect(Object.keys(store)).toEqual(expect.arrayContaining(Object.keys(resourceTable)));
    expect(Object.keys(store.products).sort()).toEqual(Object.keys(resourceTable.products).sort());
    const { get } = store.products;
    await expect(get(42)).resolves.toEqual({ id: 42 });
    expect(sentRequests(fetch).map((request) => request.url)).toEqual([`${BASE_URL}/products/42.json`]);
    // A frozen client still sends (its resources are made on each read then, not kept).
    const frozen = Object.freeze(new StoreClient({ ...BASIC, baseUrl: BASE_URL, fetch, rateLimit: false }));
    await expect(frozen.products.get(42)).resolves.toEqual({ id: 42 });
    const replacement = { list: () => 'stub' };
    (store as unknown as { hooks: unknown }).hooks = replacement;
    expect(store.hooks).toBe(replacement);
  });
});

describe('resource methods', () => {
  it('reach every operationId through exactly one method, and each method is a function on the client', () => {
    const table = rows(resourceTable);
    const ids = table.map(([, id]) => id).sort();
    expect(ids).toEqual(Object.keys(operations).sort());
    expect(new Set(ids).size).toBe(ids.length);
    const { store } = storeClient(() => jsonResponse({}));
    for (const [where] of table) expect(typeof methodAt(store, where), where).toBe('function');
  });

  it('names the common operations as documented', () => {
    const byName = Object.fromEntries(rows(resourceTable));
    expect(byName).toMatchObject({
      'products.list': 'listProducts',
      'products.create': 'createProduct',
      'products.get': 'getProduct',
      'products.update': 'updateProduct',
      'products.delete': 'deleteProduct',
      'products.count': 'countProducts',
      'products.variants.create': 'createProductVariant',
      'orders.listByStatus': 'listOrdersByStatus',
      'customers.categories.list': 'listCustomerCategories',
      'customers.categories.addCustomers': 'addCustomersToCustomerCategory',
      'orders.fulfillments.list': 'listOrderFulfillments',
      'store.getInfo': 'getStoreInfo',
    });
  });

  it('sends path parameters, the body in its envelope and per-call headers, and unwraps the result', async () => {
    const { fetch, store } = storeClient(() => jsonResponse({ variant: { id: 9, price: 12.5 } }));
    const variant = await store.products.variants.create(
      42,
      { price: 12.5, sku: 'MUG-RED' },
      { headers: { 'x-trace': 'abc' }, timeout: 5_000 },
    );
    expect(variant).toEqual({ id: 9, price: 12.5 });
    const [request] = sentRequests(fetch);
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`${BASE_URL}/products/42/variants.json`);
    expect(request?.headers.get('x-trace')).toBe('abc');
    expect(await request?.json()).toEqual({ variant: { price: 12.5, sku: 'MUG-RED' } });
  });

  it('takes the query of a method with a body in its options', async () => {
    const { fetch, store } = storeClient(() => jsonResponse({ product: { id: 7, name: 'Mug' } }));
    const product = await store.products.create({ name: 'Mug', price: 10 }, { query: { locale: 'es' } });
    expect(product.id).toBe(7);
    expect(sentRequests(fetch)[0]?.url).toBe(`${BASE_URL}/products.json?locale=es`);
  });

  it('sends the params of a method without a body as its query', async () => {
    const { fetch, store } = storeClient(() => jsonResponse({ count: 3 }));
    expect(await store.products.countByStatus('available', {})).toEqual({ count: 3 });
    expect(await store.orders.count()).toEqual({ count: 3 });
    expect(sentRequests(fetch).map((request) => new URL(request.url).pathname)).toEqual([
      '/v1/products/status/available/count.json',
      '/v1/orders/count.json',
    ]);
  });

  it('unwraps every record of an array answer and walks listings page by page', async () => {
    const { fetch, store } = storeClient((request) => {
      const page = new URL(request.url).searchParams.get('page');
      return jsonResponse(page === '1' ? [{ product: { id: 1 } }, { product: { id: 2 } }] : [{ product: { id: 3 } }]);
    });
    const listed = await store.products.list({ limit: 2 }).toArray({ max: 10 });
    expect(listed).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(sentRequests(fetch)).toHaveLength(2);
    expect(await store.products.search({ query: 'mug' })).toEqual([{ id: 3 }]);
  });

  it('refuses an answer without its envelope with ResponseParseError naming the operation', async () => {
    const { store } = storeClient(() => jsonResponse({ id: 1 }));
    const error = await store.products.get(1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect(String(error)).toContain('getProduct (GET /products/{id}.json) has no "product" member');
  });

  it('validates inputs before sending, naming the field', async () => {
    const { fetch, store } = storeClient(() => jsonResponse({}));
    const error = await store.products
      .list({ limit: 500 })
      .toArray({ max: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ field: 'query.limit' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses per-call options put among the params, naming them, and sends nothing', async () => {
    const { fetch, store } = storeClient(() => jsonResponse({ product: { id: 42 } }));
    // From JavaScript, or TypeScript told to look away: `{ timeout }` in the params' place, where the query goes.
    const get = store.products.get as (id: number, params?: object, options?: object) => Promise<unknown>;
    const error = await get(42, { timeout: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operation: 'getProduct', field: 'query.timeout' });
    expect(String(error)).toMatch(
      /^RequestValidationError: Invalid request for getProduct: query.timeout is a per-call option/,
    );
    const typo = await get(42, { locale: 'es', colour: 'red' }).catch((caught: unknown) => caught);
    expect(typo).toMatchObject({
      field: 'query.colour',
      reason: 'is not a query parameter of getProduct (it takes: locale)',
    });
    expect(fetch).not.toHaveBeenCalled();
    // In the options' place they work: the call is sent, with no per-call option in its URL.
    await store.products.get(42, {}, { timeout: 5_000, maxRetries: 0 });
    expect(sentRequests(fetch).map((request) => request.url)).toEqual([`${BASE_URL}/products/42.json`]);
  });

  it('stops a call when its signal aborts', async () => {
    const { store } = storeClient(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const call = store.products.get(1, {}, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow();
  });

  it('types params without the envelope and results out of it', () => {
    const { store } = storeClient(() => jsonResponse({}));
    expectTypeOf(store.products.create).parameter(0).toEqualTypeOf<ProductCreateParams>();
    expectTypeOf<ProductCreateParams>().toHaveProperty('price');
    expectTypeOf<ProductCreateResult>().toEqualTypeOf<ProductFields>();
    expectTypeOf<ProductCreateResult['id']>().toEqualTypeOf<number>();
  });
});

describe('inputs and results without envelopes, one call surface', () => {
  it('sends nested records in their envelopes, patches with only the given fields, and hands out the response', async () => {
    const { fetch, store } = storeClient((request) =>
      jsonResponse({ product: { id: 5, name: 'Mug' } }, { status: request.method === 'POST' ? 201 : 200 }),
    );
    await store.products.create({ name: 'Mug', price: 10, variants: [{ price: 12, sku: 'MUG-L' }] });
    const { data, response } = await store.products.update(5, { price: 9 }).withResponse();
    expect(data).toEqual({ id: 5, name: 'Mug' });
    expect(response.status).toBe(200);
    expect((await store.products.get(5).asResponse()).status).toBe(200);
    const [create, update] = sentRequests(fetch);
    expect(await create?.json()).toEqual({
      product: { name: 'Mug', price: 10, variants: [{ variant: { price: 12, sku: 'MUG-L' } }] },
    });
    expect(await update?.json()).toEqual({ product: { price: 9 } });
    expectTypeOf(store.products.update).parameter(1).toEqualTypeOf<ProductUpdateParams | undefined>();
    expectTypeOf<ProductUpdateParams>().toEqualTypeOf<Partial<ProductUpdateParams>>();
  });

  it('yields the same records from .pages() as from iteration, out of their envelopes', async () => {
    const { store } = storeClient((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return jsonResponse(page === 1 ? [{ product: { id: 1 } }, { product: { id: 2 } }] : [{ product: { id: 3 } }]);
    });
    const pages: ProductFields[][] = [];
    for await (const page of store.products.list({ limit: 2 }).pages()) pages.push(page);
    expect(pages).toEqual([[{ id: 1 }, { id: 2 }], [{ id: 3 }]]);
    expect(await store.products.list({ limit: 2 }).toArray({ max: 10 })).toEqual(pages.flat());
  });
});
