import { describe, expect, it } from 'vitest';
import type { OpenApiDocument, Parameter } from './openapi.ts';
import { findPathConflicts } from './paths.ts';

function pathParam(name: string, schema: Parameter['schema'] = { type: 'string' }): Parameter {
  return { name, in: 'path', required: true, schema };
}

/** A document with one GET per path, each declaring the given path parameters. */
function documentWith(paths: Record<string, Parameter[]>): OpenApiDocument {
  return {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, parameters]) => [path, { get: { parameters, responses: {} } }]),
    ),
  };
}

describe('findPathConflicts', () => {
  it('finds templates that differ only by parameter names', () => {
    const conflicts = findPathConflicts(
      documentWith({ '/jsapps/{code}.json': [pathParam('code')], '/jsapps/{id}.json': [pathParam('id')] }),
    );
    expect(conflicts).toEqual([
      { kind: 'identical', paths: ['/jsapps/{code}.json', '/jsapps/{id}.json'], detail: expect.any(String) },
    ]);
  });

  it('finds a literal segment that a string template also matches', () => {
    const conflicts = findPathConflicts(
      documentWith({ '/products/search.json': [], '/products/{id}.json': [pathParam('id')] }),
    );
    expect(conflicts.map((c) => [c.kind, ...c.paths])).toEqual([
      ['ambiguous', '/products/search.json', '/products/{id}.json'],
    ]);
  });

  it('treats a literal as disjoint from an integer, enum or pattern parameter that rejects it', () => {
    for (const schema of [
      { type: 'integer' },
      { type: 'string', enum: ['paid', 'pending'] },
      { type: 'string', pattern: '^[0-9]+$' },
    ]) {
      const conflicts = findPathConflicts(
        documentWith({ '/orders/search.json': [], '/orders/{id}.json': [pathParam('id', schema)] }),
      );
      expect(conflicts, JSON.stringify(schema)).toEqual([]);
    }
  });

  it('finds two templates in one position unless their parameters are disjoint', () => {
    const overlapping = documentWith({
      '/products/status/{status}.json': [pathParam('status')],
      '/products/{id}/reviews.json': [pathParam('id', { type: 'integer' })],
      '/products/{id}/{kind}.json': [pathParam('id', { type: 'integer' }), pathParam('kind')],
    });
    expect(findPathConflicts(overlapping).map((c) => c.paths)).toEqual([
      ['/products/{id}/reviews.json', '/products/{id}/{kind}.json'],
    ]);
    const disjoint = documentWith({
      '/orders/{status}/list.json': [pathParam('status', { type: 'string', enum: ['paid'] })],
      '/orders/{id}/{part}.json': [pathParam('id', { type: 'integer' }), pathParam('part')],
    });
    expect(findPathConflicts(disjoint)).toEqual([]);
  });

  it('finds declared path parameters that do not match the template, either way round', () => {
    const conflicts = findPathConflicts(
      documentWith({
        '/apps/{code}/billing.json': [pathParam('code'), pathParam('date')],
        '/shipping_methods.json': [pathParam('enabled')],
        '/orders/{id}/history.json': [],
      }),
    );
    expect(conflicts.map((c) => [c.kind, c.paths[0], c.detail])).toEqual([
      [
        'parameter-mismatch',
        '/apps/{code}/billing.json',
        'GET declares path parameters [code, date] but the template has [code]',
      ],
      [
        'parameter-mismatch',
        '/shipping_methods.json',
        'GET declares path parameters [enabled] but the template has []',
      ],
      ['parameter-mismatch', '/orders/{id}/history.json', 'GET declares path parameters [] but the template has [id]'],
    ]);
  });

  it('resolves $ref parameters and path-item parameters', () => {
    const document: OpenApiDocument = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      components: { parameters: { Id: pathParam('id', { type: 'integer' }) } },
      paths: {
        '/products/{id}.json': { parameters: [{ $ref: '#/components/parameters/Id' }], get: { responses: {} } },
        '/products/count.json': { get: { responses: {} } },
      },
    };
    expect(findPathConflicts(document)).toEqual([]);
  });
});
