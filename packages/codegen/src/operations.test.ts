import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { describe, expect, it } from 'vitest';
import { describeOperations, renderOperationsModule } from './operations.ts';
import { parsedConstant } from './test-support.ts';

function documentWith(paths: Record<string, unknown>, extra: Partial<OpenApiDocument> = {}): OpenApiDocument {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, ...extra } as OpenApiDocument;
}

const ok = { 200: { description: 'ok' } };

describe('describeOperations', () => {
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

    expect(describeOperations(document)).toEqual({
      updateProduct: {
        id: 'updateProduct',
        method: 'PUT',
        path: '/shops/{shopId}/products/{id}.json',
        pathParams: ['shopId', 'id'],
        pathTypes: { shopId: { required: true, type: 'integer' }, id: { required: true, type: 'integer' } },
        query: {
          locale: { required: false, type: 'string', enum: ['en', 'es'] },
          limit: { required: false, type: 'integer', minimum: 1, maximum: 100, default: 50 },
          sort: { required: true, type: 'string', enum: ['asc', 'desc'] },
        },
        hasBody: true,
        bodyRequired: true,
        requiredBodyFields: [],
        successStatus: 201,
        successJson: false,
        errorStatuses: [404, 500],
        security: [['basic']],
      },
    });
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
    const table = describeOperations(document);
    expect(Object.fromEntries(Object.entries(table).map(([id, row]) => [id, row.successJson]))).toEqual({
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
    const table = describeOperations(document);
    expect(table.getPublic?.security).toEqual([]);
    expect(table.getMixed?.security).toEqual([[], ['login', 'token']]);
    expect(table.create).toMatchObject({ security: [['bearer']], hasBody: true, bodyRequired: false });
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
        '/products/{id}.json': { put: { operationId: 'update', requestBody: body, responses: ok } },
      },
      { components: { schemas: { Fields: fields } } },
    );
    const table = describeOperations(document);
    expect(table.create?.requiredBodyFields).toEqual(['product.name', 'product.price']);
    expect(table.update?.requiredBodyFields).toEqual([]);
    expect(parsedConstant(renderOperationsModule(table), 'createOperation').value).toMatchObject({
      requiredBodyFields: ['product.name', 'product.price'],
    });
  });

  it('fails on an operation without operationId or without a 2xx response', () => {
    expect(() => describeOperations(documentWith({ '/a': { get: { responses: ok } } }))).toThrow(
      'GET /a has no operationId',
    );
    expect(() =>
      describeOperations(documentWith({ '/a': { get: { operationId: 'getA', responses: { default: {} } } } })),
    ).toThrow('GET /a (getA) declares no 2xx response');
  });
});

describe('renderOperationsModule', () => {
  it('renders each row as JSON parsed at import, marked pure, typed with its literal type', () => {
    const source = renderOperationsModule(
      describeOperations(documentWith({ '/a-b': { get: { operationId: 'get-a-b', responses: ok } } })),
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
    const query = { required: false, type: 'integer' as const };
    const source = renderOperationsModule({
      getItem: {
        id: 'getItem',
        method: 'GET',
        path: '/items/{id}',
        pathParams: ['id'],
        pathTypes: { id: { required: true, type: 'integer' } },
        query: { page: query, sort: { required: true, type: 'string' } },
        hasBody: false,
        bodyRequired: false,
        requiredBodyFields: [],
        successStatus: 200,
        successJson: true,
        errorStatuses: [],
        security: [],
      },
    });
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
