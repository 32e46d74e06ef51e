import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { describe, expect, it } from 'vitest';
import { renderResourcesModule, resourceMethods, resourceName, typeNames } from './resources.ts';
import { documentWith as finalDocument, manifestOf, parsedConstant } from './test-support.ts';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema: unknown = { type: 'object' }) => ({ 200: { description: 'ok', ...json(schema) } });
const object = (properties: Record<string, unknown>, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});

function documentWith(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}): OpenApiDocument {
  return finalDocument(paths, { components: { schemas } });
}

/** The resource methods of a fixture document, through its manifest. */
const describeResources = (document: OpenApiDocument) => resourceMethods(manifestOf(document).operations);
const renderResources = (document: OpenApiDocument) => renderResourcesModule(manifestOf(document).operations);

describe('resourceName', () => {
  const first = new Set([
    'products',
    'customers',
    'customer_categories',
    'order',
    'orders',
    'store',
    'checkout_fields',
  ]);
  const name = (method: string, path: string, id: string) => {
    const { resource, method: verb } = resourceName(method, path, id, first);
    return [...resource, verb].join('.');
  };

  it('reads the resource chain from the path and the verb from the operationId', () => {
    expect(name('get', '/products.json', 'listProducts')).toBe('products.list');
    expect(name('post', '/products/{id}/variants.json', 'createProductVariant')).toBe('products.variants.create');
    expect(name('delete', '/products/{id}/digital_products/{dp}.json', 'deleteProductDigitalProduct')).toBe(
      'products.digitalProducts.delete',
    );
  });

  it('turns filter pairs into suffixes and a trailing count or search into the verb', () => {
    expect(name('get', '/orders/status/{status}.json', 'listOrdersByStatus')).toBe('orders.listByStatus');
    expect(name('get', '/products/status/{s}/count.json', 'countProductsByStatus')).toBe('products.countByStatus');
    expect(name('get', '/customers/email/{email}.json', 'getCustomerByEmail')).toBe('customers.getByEmail');
    expect(name('get', '/products/search.json', 'searchProducts')).toBe('products.search');
  });

  it('nests a compound or singular first segment under the resource it names', () => {
    expect(name('get', '/customer_categories/{id}.json', 'getCustomerCategory')).toBe('customers.categories.get');
    expect(name('get', '/order/{id}/fulfillments.json', 'listOrderFulfillments')).toBe('orders.fulfillments.list');
    expect(name('get', '/checkout_fields.json', 'listCheckoutFields')).toBe('checkoutFields.list');
  });

  it('moves the segment of a get on a collection into the method name', () => {
    expect(name('get', '/store/info.json', 'getStoreInfo')).toBe('store.getInfo');
  });

  it('lets an explicit name win', () => {
    expect(name('post', '/customer_categories/{id}/customers.json', 'addCustomersToCustomerCategory')).toBe(
      'customers.categories.addCustomers',
    );
  });
});

describe('resource methods of a manifest', () => {
  it('finds body and result envelopes, paged listings and path parameter types', () => {
    const schemas = {
      Product: object({ product: { $ref: '#/components/schemas/ProductFields' } }),
      ProductFields: object({ id: { type: 'integer' }, name: { type: 'string' } }, ['id']),
      ProductCreate: object({ product: object({ name: { type: 'string' } }, ['name']) }),
    };
    const page = [
      { name: 'page', in: 'query', schema: { type: 'integer' } },
      { name: 'limit', in: 'query', schema: { type: 'integer' } },
    ];
    const document = documentWith(
      {
        '/products.json': {
          get: {
            operationId: 'listProducts',
            parameters: page,
            responses: ok({ type: 'array', items: { $ref: '#/components/schemas/Product' } }),
          },
          post: {
            operationId: 'createProduct',
            requestBody: { required: true, ...json({ $ref: '#/components/schemas/ProductCreate' }) },
            responses: ok({ $ref: '#/components/schemas/Product' }),
          },
        },
        '/products/count.json': { get: { operationId: 'countProducts', responses: ok(object({ count: {} })) } },
        '/products/{id}.json': {
          get: {
            operationId: 'getProduct',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: ok({ $ref: '#/components/schemas/Product' }),
          },
        },
      },
      schemas,
    );
    const [list, create, count, get] = describeResources(document);
    expect(list).toMatchObject({ method: 'list', kind: 'list', resultKey: 'product', takesParams: true });
    expect(create).toMatchObject({ bodyKey: 'product', resultKey: 'product', paramsRequired: true, kind: 'one' });
    expect(count).toMatchObject({ resultKey: '', takesParams: false });
    expect(get?.pathParams).toEqual([{ name: 'id', type: 'number' }]);
    const source = renderResources(document);
    const table = parsedConstant(source, 'resourceTable');
    expect(table.value).toMatchObject({
      products: { create: ['createProduct', 'product', 'product'], count: ['countProducts'] },
    });
    expect(table.type).toContain('readonly create: readonly ["createProduct", "product", "product"];');
    expect(source).toContain('get(id: number, options?: RequestOptions): ApiPromise<ProductGetResult>;');
    expect(source).toContain('export type ProductCreateParams = BodyParams<"createProduct", "product">;');
  });

  it('takes nested records without their envelopes, and makes the params of a PUT update all optional', () => {
    const schemas = {
      Product: object({ product: object({ id: { type: 'integer' } }) }),
      VariantEdit: object({ variant: object({ sku: { type: 'string' } }) }),
      ProductCreate: object({
        product: object(
          {
            name: { type: 'string' },
            variants: { type: 'array', items: { $ref: '#/components/schemas/VariantEdit' } },
          },
          ['name'],
        ),
      }),
      ProductEdit: object({
        product: object({ name: { type: 'string' }, price: { type: 'number' } }, ['name', 'price']),
      }),
    };
    const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }];
    const document = documentWith(
      {
        '/products.json': {
          post: {
            operationId: 'createProduct',
            requestBody: { required: true, ...json({ $ref: '#/components/schemas/ProductCreate' }) },
            responses: ok({ $ref: '#/components/schemas/Product' }),
          },
        },
        '/products/{id}.json': {
          put: {
            operationId: 'updateProduct',
            parameters: id,
            requestBody: { required: true, ...json({ $ref: '#/components/schemas/ProductEdit' }) },
            responses: ok({ $ref: '#/components/schemas/Product' }),
          },
        },
      },
      schemas,
    );
    const [create, update] = describeResources(document);
    expect(create).toMatchObject({ nestedKeys: { variants: 'variant' }, patches: false, paramsRequired: true });
    expect(update).toMatchObject({ nestedKeys: {}, patches: true, paramsRequired: false });
    const source = renderResources(document);
    expect(parsedConstant(source, 'resourceTable').value).toMatchObject({
      products: { create: ['createProduct', 'product', 'product', 'one', { variants: 'variant' }] },
    });
    expect(source).toContain(
      'export type ProductCreateParams = BodyParams<"createProduct", "product", {"variants":"variant"}>;',
    );
    expect(source).toContain('export type ProductUpdateParams = Partial<BodyParams<"updateProduct", "product">>;');
    expect(source).toContain('update(id: number, params?: ProductUpdateParams,');
  });

  it('refuses two operations that would get the same method', () => {
    const document = documentWith({
      '/things.json': { get: { operationId: 'listThings', responses: ok() } },
      '/things/{id}.json': {
        get: {
          operationId: 'listThingsOfOwner',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: ok(),
        },
      },
    });
    expect(() => describeResources(document)).toThrow(
      'resource method things.list would name both listThings and listThingsOfOwner',
    );
  });
});

describe('typeNames', () => {
  it('names types after the singular resource chain and the method', () => {
    expect(typeNames({ resource: ['products', 'variants'], method: 'create' })).toEqual({
      params: 'ProductVariantCreateParams',
      result: 'ProductVariantCreateResult',
    });
    expect(typeNames({ resource: ['customers', 'categories'], method: 'listByStatus' }).params).toBe(
      'CustomerCategoryListByStatusParams',
    );
  });
});
