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
      '## `trust.api`\n\n' +
        '- `api.getProduct(options)` → `GetProductResponses[200]`: Retrieve a product. (`GET /products/{id}.json`; read; errors 404, 429)\n' +
        '  - path `id` (integer, 1–)\n' +
        '  - query `fields` ("a" \\| "b")\n',
    );
    // Without a summary the request is said once; without documented errors that is said too.
    expect(text).toContain(
      '- `api.createProduct(options)` → `CreateProductResponses[201]`: (`POST /products.json`; write; no errors documented)\n' +
        '  - `body` (JSON), required; required fields `name`\n',
    );
    expect(text).not.toContain('`store.');
  });

  it("lists the store's operations under their resource methods, grouped by resource", () => {
    const text = renderApiReference(manifestOf(document, 'store'));
    expect(text).toContain(
      '## `store.products`\n\n' +
        '- `store.products.get(id: number, params?: ProductGetParams, options?)` → `ProductGetResult`: Retrieve a product. (`GET /products/{id}.json`; read; errors 404, 429)\n' +
        '  - as `api.getProduct(options)` → `GetProductResponses[200]`\n' +
        '  - path `id` (integer, 1–)\n' +
        '  - query `fields` ("a" \\| "b")\n',
    );
    expect(text).toContain(
      '- `store.products.create(params: ProductCreateParams, options?)` → `ProductCreateResult`: (`POST /products.json`; write; no errors documented)\n' +
        '  - as `api.createProduct(options)` → `CreateProductResponses[201]`\n',
    );
    // Each operation once, under its resource method.
    expect(text).not.toContain('## `store.api`');
  });
});
