import { describe, expect, it } from 'vitest';
import { renderOperationsModule } from './operations.ts';
import { documentWith, manifestOf, parsedConstant, rowsOf } from './test-support.ts';

const ok = { 200: { description: 'ok' } };

describe('describeManifest: the runtime row', () => {
  it('describes path parameters, query parameters, body, statuses and security of each operation', () => {
    const document = documentWith(
      {
        '/shops/{shopId}/products/{id}.json': {
          parameters: [{ $ref: '#/components/parameters/Locale' }],
          put: {
            operationId: 'updateProduct',
            parameters: [
              { name: 'shopId', in: 'path', required: true, schema: { type: 'integer' } },
              { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
              {
                name: 'limit',
                in: 'query',
                schema: { type: ['integer', 'null'], minimum: 1, maximum: 100, default: 50 },
              },
              { name: 'sort', in: 'query', required: true, schema: { $ref: '#/components/schemas/Sort' } },
              { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
            ],
            requestBody: { $ref: '#/components/requestBodies/Product' },
            responses: { 404: {}, 201: {}, '4XX': {}, default: {}, 500: {}, 204: {} },
          },
        },
      },
      {
        security: [{ basic: [] }],
        components: {
          parameters: { Locale: { name: 'locale', in: 'query', schema: { enum: ['en', 'es'] } } },
          schemas: { Sort: { type: 'string', enum: ['asc', 'desc'] } },
          requestBodies: { Product: { required: true, content: {} } },
        },
      },
    );

    const rows = rowsOf(document);
    expect(Object.keys(rows)).toEqual(['updateProduct']);
    expect(rows.updateProduct).toMatchObject({
      id: 'updateProduct',
      method: 'PUT',
      path: '/shops/{shopId}/products/{id}.json',
      pathParams: ['shopId', 'id'],
      pathTypes: { shopId: { type: 'integer' }, id: { type: 'integer' } },
      query: {
        locale: { type: 'string', enum: ['en', 'es'] },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
        sort: { required: true, type: 'string', enum: ['asc', 'desc'] },
      },
      hasBody: true,
      bodyRequired: true,
      successStatus: 201,
      successJson: false,
      errorStatuses: [404, 500],
      security: [['basic']],
    });
    expect(rows.updateProduct).not.toHaveProperty('requiredBodyFields');
    expect(rows.updateProduct?.query?.locale).not.toHaveProperty('required');
  });

  it('marks operations whose success response is JSON, so a text answer can be refused', () => {
    const content = (...types: string[]) => ({ 200: { content: Object.fromEntries(types.map((t) => [t, {}])) } });
    const document = documentWith({
      '/json': { get: { operationId: 'json', responses: content('application/json') } },
      '/problem': { get: { operationId: 'problem', responses: content('application/problem+json') } },
      '/text': { get: { operationId: 'text', responses: content('text/plain') } },
      '/either': { get: { operationId: 'either', responses: content('application/json', 'text/csv') } },
      '/empty': { get: { operationId: 'empty', responses: { 204: {} } } },
    });
    const table = rowsOf(document);
    expect(Object.fromEntries(Object.entries(table).map(([id, row]) => [id, row.successJson ?? true]))).toEqual({
      json: true,
      problem: true,
      text: false,
      either: false,
      empty: false,
    });
  });

  it('lets an operation override the document security, and keeps anonymous and combined alternatives', () => {
    const document = documentWith(
      {
        '/public': { get: { operationId: 'getPublic', security: [], responses: ok } },
        '/mixed': { get: { operationId: 'getMixed', security: [{}, { login: [], token: [] }], responses: ok } },
        '/default': { post: { operationId: 'create', requestBody: { content: {} }, responses: ok } },
      },
      { security: [{ bearer: [] }] },
    );
    const table = rowsOf(document);
    expect(table.getPublic?.security).toEqual([]);
    expect(table.getMixed?.security).toEqual([[], ['login', 'token']]);
    expect(table.create).toMatchObject({ security: [['bearer']], hasBody: true });
    expect(table.create).not.toHaveProperty('bodyRequired');
  });

  it('lists the required properties of a POST body as dotted paths, and none for a PUT body', () => {
    const fields = {
      type: 'object',
      required: ['name', 'price', 'ghost'],
      properties: { name: { type: 'string' }, price: { type: 'number' }, variants: { type: 'array', items: {} } },
    };
    const body = {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { product: { $ref: '#/components/schemas/Fields' } } },
        },
      },
    };
    const document = documentWith(
      {
        '/products.json': { post: { operationId: 'create', requestBody: body, responses: ok } },
        '/products/{id}.json': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          put: { operationId: 'update', requestBody: body, responses: ok },
        },
      },
      { components: { schemas: { Fields: fields } } },
    );
    const table = rowsOf(document);
    expect(table.create?.requiredBodyFields).toEqual(['product.name', 'product.price']);
    expect(table.update).not.toHaveProperty('requiredBodyFields');
    expect(parsedConstant(renderOperationsModule(Object.values(table)), 'createOperation').value).toMatchObject({
      requiredBodyFields: ['product.name', 'product.price'],
    });
  });

  it('fails on an operation without operationId or without a 2xx response', () => {
    expect(() => rowsOf(documentWith({ '/a': { get: { responses: ok } } }))).toThrow('GET /a has no operationId');
    expect(() => rowsOf(documentWith({ '/a': { get: { operationId: 'getA', responses: { default: {} } } } }))).toThrow(
      'GET /a (getA) declares no 2xx response',
    );
  });
});

describe('renderOperationsModule', () => {
  it('renders each row as JSON parsed at import, marked pure, typed with its literal type', () => {
    const source = renderOperationsModule(
      manifestOf(documentWith({ '/a-b': { get: { operationId: 'get-a-b', responses: ok } } })).operations,
    );
    expect(source).toMatch(/^import type \{ Operation \} from '@agent-apis\/core';/);
    expect(source).toContain('/** `GET /a-b` */\nexport const get_a_bOperation: {');
    const row = parsedConstant(source, 'get_a_bOperation');
    expect(row.value).toEqual({ id: 'get-a-b', method: 'GET', path: '/a-b', successJson: false });
    expect(row.type).toBe(
      '{\n  readonly id: "get-a-b";\n  readonly method: "GET";\n  readonly path: "/a-b";\n  readonly successJson: false;\n}',
    );
    expect(source).not.toContain('interface');
    expect(source).not.toContain('errorStatuses');
    expect(source).not.toContain('security');
    expect(source).not.toContain('successStatus');
    expect(source).toContain(
      'export const operations = {\n  "get-a-b": get_a_bOperation,\n} as const satisfies Readonly<Record<string, Operation>>;',
    );
    expect(source).toContain('export type OperationId = keyof typeof operations;');
  });

  it('ships only fields away from their defaults: path parameters unmarked, query parameters required only when so', () => {
    const source = renderOperationsModule(
      manifestOf(
        documentWith({
          '/items/{id}': {
            get: {
              operationId: 'getItem',
              parameters: [
                { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
                { name: 'page', in: 'query', schema: { type: 'integer' } },
                { name: 'sort', in: 'query', required: true, schema: { type: 'string' } },
              ],
              responses: { 200: { content: { 'application/json': {} } } },
            },
          },
        }),
      ).operations,
    );
    const { value, type } = parsedConstant(source, 'getItemOperation');
    expect(value).toEqual({
      id: 'getItem',
      method: 'GET',
      path: '/items/{id}',
      pathParams: ['id'],
      pathTypes: { id: { type: 'integer' } },
      query: { page: { type: 'integer' }, sort: { required: true, type: 'string' } },
    });
    expect(type).toContain('readonly pathParams: readonly ["id"];');
    expect(type).toContain('readonly sort: {\n      readonly required: true;\n      readonly type: "string";\n    };');
  });
});
