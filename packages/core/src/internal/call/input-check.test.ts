import { thrownBy } from '@agent-apis/test-utils/errors';
import { createProduct, getProduct, listProducts } from '@agent-apis/test-utils/operation-fixtures';
import { describe, expect, it } from 'vitest';
import type { OperationShape } from '../../operations.js';
import { RequestValidationError } from './errors.js';
import { validateOperationInput, validateRequestOptions } from './input-check.js';
import { expandPath } from './wire-encoding.js';

const refusal = (run: () => unknown): RequestValidationError => thrownBy(run, RequestValidationError);

describe('validateOperationInput', () => {
  it('accepts inputs within the constraints', () => {
    expect(() =>
      validateOperationInput('listProducts', listProducts, { query: { q: 'x', limit: 100, status: 'disabled' } }),
    ).not.toThrow();
    expect(() => validateOperationInput('getProduct', getProduct, { path: { id: 7 } })).not.toThrow();
  });

  it.each([
    [{ query: { q: 'x', limit: 0 } }, 'query.limit', 'must be at least 1, got 0'],
    [{ query: { q: 'x', limit: 101 } }, 'query.limit', 'must be at most 100, got 101'],
    [{ query: { q: 'x', limit: 2.5 } }, 'query.limit', 'must be an integer, got 2.5'],
    [{ query: { q: 'x', limit: '10' } }, 'query.limit', 'must be an integer, got "10"'],
    [{ query: { q: 'x', status: 'gone' } }, 'query.status', 'must be one of "available", "disabled", got "gone"'],
    [{ query: {} }, 'query.q', 'is required'],
    [{}, 'query.q', 'is required'],
    [{ query: { q: 'x' }, body: { any: 1 } }, 'body', 'must not be given: a GET request carries no body'],
  ])('refuses %j naming %s', (input, field, reason) => {
    const error = refusal(() => validateOperationInput('listProducts', listProducts, input));
    expect(error.field).toBe(field);
    expect(error.reason).toBe(reason);
    expect(error.operation).toBe('listProducts');
    expect(error.message).toBe(`Invalid request for listProducts: ${field} ${reason}`);
  });

  it('judges values by the one argument checker, with its wording, quoting what was given', () => {
    const listServers = {
      method: 'GET',
      path: '/api/mcp',
      query: { official: { type: 'boolean' }, filter: { type: 'object' }, anything: { type: 'unknown', enum: [1, 2] } },
    } as const satisfies OperationShape;
    const check = (query: Record<string, unknown>) =>
      refusal(() => validateOperationInput('listMcpServers', listServers, { query }));
    expect(check({ official: 'yes' })).toMatchObject({
      field: 'query.official',
      reason: 'must be a boolean, got "yes"',
    });
    expect(check({ filter: ['a'] })).toMatchObject({
      field: 'query.filter',
      reason: 'must be an object, got an array',
    });
    // `unknown` leaves the type open, and the rest of the row still holds.
    expect(check({ anything: 3 })).toMatchObject({ field: 'query.anything', reason: 'must be one of 1, 2, got 3' });
    expect(() => validateOperationInput('listMcpServers', listServers, { query: { anything: 2 } })).not.toThrow();
  });

  it('requires path parameters and a required body', () => {
    expect(refusal(() => validateOperationInput('getProduct', getProduct, {})).field).toBe('path.id');
    expect(refusal(() => validateOperationInput('getProduct', getProduct, { path: { id: '' } })).field).toBe('path.id');
    expect(refusal(() => validateOperationInput('getProduct', getProduct, { path: { id: {} } })).reason).toMatch(
      /string or a number/,
    );
    expect(refusal(() => validateOperationInput('createProduct', createProduct, {})).field).toBe('body');
  });

  it('requires the body properties a create needs wherever their object is present, before sending', () => {
    const withFields = { ...createProduct, requiredBodyFields: ['product.name', 'product.price'] };
    const missingName = refusal(() =>
      validateOperationInput('createProduct', withFields, { body: { product: { price: 10 } } }),
    );
    expect(missingName).toMatchObject({ field: 'body.product.name', reason: 'is required' });
    expect(missingName.message).toBe('Invalid request for createProduct: body.product.name is required');
    expect(
      refusal(() =>
        validateOperationInput('createProduct', withFields, { body: { product: { name: 'Mug', price: null } } }),
      ).field,
    ).toBe('body.product.price');
    expect(() =>
      validateOperationInput('createProduct', withFields, { body: { product: { name: 'Mug', price: 0 } } }),
    ).not.toThrow();
    // The wrapper itself is optional in the spec: an empty body is the server's to judge.
    expect(() => validateOperationInput('createProduct', withFields, { body: {} })).not.toThrow();
  });

  it('refuses a per-call option put among the query parameters, naming it, instead of sending it', () => {
    for (const name of ['timeout', 'maxRetries', 'signal', 'headers']) {
      const error = refusal(() =>
        validateOperationInput('listProducts', listProducts, { query: { q: 'x', [name]: 1 } }),
      );
      expect(error.field).toBe(`query.${name}`);
      expect(error.reason).toMatch(/^is a per-call option, not a query parameter: pass it among the call's options/);
    }
  });

  it('refuses any key the operation does not declare: in the query, the path and the call itself', () => {
    expect(
      refusal(() => validateOperationInput('listProducts', listProducts, { query: { q: 'x', colour: 'red' } })),
    ).toMatchObject({
      field: 'query.colour',
      reason: 'is not a query parameter of listProducts (it takes: limit, status, q)',
    });
    expect(
      refusal(() => validateOperationInput('getProduct', getProduct, { query: { fields: 'id' }, path: { id: 1 } })),
    ).toMatchObject({ field: 'query.fields', reason: 'is not a query parameter of getProduct (it takes: none)' });
    expect(
      refusal(() => validateOperationInput('getProduct', getProduct, { path: { id: 1, slug: 'mug' } })),
    ).toMatchObject({ field: 'path.slug', reason: 'is not a path parameter of getProduct (it takes: id)' });
    // A row whose path rules were lifted (no pathParams) still takes its template's variables.
    expect(() =>
      validateOperationInput('getProduct', { method: 'GET', path: '/products/{id}.json' }, { path: { id: 'x' } }),
    ).not.toThrow();
    const typo = refusal(() =>
      validateOperationInput('getProduct', getProduct, { path: { id: 1 }, timout: 5 } as { path: { id: number } }),
    );
    expect(typo).toMatchObject({ field: 'timout' });
    expect(typo.reason).toMatch(/^is not an option of a call to getProduct \(it takes: path, query, body, /);
    // A key left undefined sends nothing, so spreading optional fields stays fine.
    expect(() =>
      validateOperationInput('listProducts', listProducts, {
        query: { q: 'x', colour: undefined },
        extra: undefined,
      } as { query: Record<string, unknown> }),
    ).not.toThrow();
  });
});

describe('path parameters', () => {
  const removeCustomer = {
    method: 'DELETE',
    path: '/customer_categories/{id}/customers/{customer_id}.json',
    pathParams: ['id', 'customer_id'],
    pathTypes: { id: { required: true, type: 'integer' }, customer_id: { required: true, type: 'string' } },
    query: {},
    bodyRequired: false,
  } as const satisfies OperationShape;

  it('refuses dot segments, which would address another resource once the URL is resolved', () => {
    for (const value of ['.', '..']) {
      const error = refusal(() =>
        validateOperationInput('removeCustomer', removeCustomer, { path: { id: 3, customer_id: value } }),
      );
      expect(error.field).toBe('path.customer_id');
      expect(error.reason).toMatch(/must not be "\." or "\.\."/);
    }
  });

  it('checks the declared type of a path parameter like a query parameter', () => {
    const error = refusal(() =>
      validateOperationInput('removeCustomer', removeCustomer, { path: { id: '..', customer_id: 'c1' } }),
    );
    expect(error.field).toBe('path.id');
    expect(
      refusal(() => validateOperationInput('removeCustomer', removeCustomer, { path: { id: 'x', customer_id: 'c' } }))
        .reason,
    ).toBe('must be an integer, got "x"');
  });

  it('encodes every value into its segment', () => {
    expect(expandPath(removeCustomer.path, { id: 3, customer_id: 'a/b?c' })).toBe(
      '/customer_categories/3/customers/a%2Fb%3Fc.json',
    );
  });
});

describe('validateRequestOptions', () => {
  it('accepts the per-call options in every form they take', () => {
    for (const options of [
      {},
      { timeout: 0, maxRetries: 2, signal: null },
      { timeout: Number.POSITIVE_INFINITY, signal: new AbortController().signal },
      { headers: new Headers({ 'x-a': '1' }) },
      { headers: [['x-a', '1']] },
      { headers: Object.assign(Object.create(null), { 'x-a': '1' }) },
    ]) {
      expect(() => validateRequestOptions('listProducts', options)).not.toThrow();
    }
  });

  it.each([
    [null, 'options', 'must be an object, got null'],
    ['timeout=5', 'options', 'must be an object, got string'],
    [{ timeout: -1 }, 'timeout', 'must be a number of milliseconds ≥ 0 (Infinity for none), got -1'],
    [{ maxRetries: 1.5 }, 'maxRetries', 'must be a whole number ≥ 0, got 1.5'],
    [{ signal: {} }, 'signal', 'must be an AbortSignal, got object'],
    [{ signal: 'abort' }, 'signal', 'must be an AbortSignal, got string'],
    [
      { headers: 'authorization: Bearer x' },
      'headers',
      'must be a Headers, [name, value] pairs or a record, got string',
    ],
    [{ headers: new Set(['x-a']) }, 'headers', 'must be a Headers, [name, value] pairs or a record, got object'],
  ])('refuses %j naming %s, without quoting the value', (options, field, reason) => {
    const error = refusal(() => validateRequestOptions('listProducts', options));
    expect(error).toMatchObject({ operation: 'listProducts', field, reason });
  });
});
