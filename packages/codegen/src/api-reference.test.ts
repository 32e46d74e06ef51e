import { describe, expect, it } from 'vitest';
import { renderApiReference } from './api-reference.ts';
import { documentWith, manifestOf } from './test-support.ts';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('renderApiReference', () => {
  const document = documentWith({
    '/products/{id}.json': {
      get: {
        operationId: 'getProduct',
        summary: 'Retrieve a product. Long prose.',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
          { name: 'fields', in: 'query', schema: { type: 'string', enum: ['a', 'b'] } },
        ],
        responses: { 200: json({ type: 'object' }), 404: {}, 429: {} },
      },
    },
    '/products.json': {
      post: {
        operationId: 'createProduct',
        'x-safety': 'write',
        requestBody: {
          required: true,
          ...json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }),
        },
        responses: { 201: json({ type: 'object' }) },
      },
    },
  });

  it('lists every api method with its inputs, checks, answer type, class and documented errors', () => {
    const text = renderApiReference(manifestOf(document, 'trust'));
    expect(text).toContain('# @agent-apis/trust API reference');
    expect(text).toContain('`new TrustClient()`');
    expect(text).toContain(
      '- `trust.api.getProduct(options)` → `GetProductResponses[200]`: Retrieve a product. (`GET /products/{id}.json`; read)\n' +
        '  - path `id` (integer, 1–)\n' +
        '  - query `fields` ("a" \\| "b")\n' +
        '  - errors: 404, 429\n',
    );
    expect(text).toContain(
      '- `trust.api.createProduct(options)` → `CreateProductResponses[201]`: POST /products.json (`POST /products.json`; write)\n' +
        '  - `body` (JSON), required; required fields `name`\n' +
        '  - errors: none documented\n',
    );
    expect(text).not.toContain('## Resource methods');
  });

  it("lists the store's resource methods too, grouped by resource", () => {
    const text = renderApiReference(manifestOf(document, 'store'));
    expect(text).toContain('## Resource methods\n\n### `store.products`\n\n');
    expect(text).toContain(
      '- `store.products.get(id: number, params?: ProductGetParams, options?)` → `ProductGetResult`: `GET /products/{id}.json`, as `api.getProduct`',
    );
    expect(text).toContain('- `store.products.create(params: ProductCreateParams, options?)` → `ProductCreateResult`');
  });
});
