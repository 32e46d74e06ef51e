/**
 * The per-call options a client's call path refuses before anything is sent: through `ApiClient`, as a user meets
 * them (`api.listProducts(…)` is `client.request(row, …)`), on the first call (call path still loading) and after.
 */

import { jsonFetch, onlyRequest } from '@agent-apis/test-utils/fetch';
import { createProduct, getProduct } from '@agent-apis/test-utils/operation-fixtures';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../api-client.js';
import type { Operation, OperationCallOptions } from '../../operations.js';
import { testService } from '../../test-support.js';
import { RequestValidationError } from './errors.js';

const getThing = { id: 'getProduct', ...getProduct } as const satisfies Operation;
const postThing = { id: 'createProduct', ...createProduct } as const satisfies Operation;

function client() {
  const fetch = jsonFetch({ ok: true });
  const api = new ApiClient(
    { fetch, maxRetries: 0 },
    {
      client: 'TestClient',
      baseUrl: 'https://api.test',
      authHeaders: { authorization: 'Bearer client-token-0123' },
      ...testService,
    },
  );
  return { api, fetch };
}

/** The error of a call made first with the call path still loading, then again once it is loaded. */
async function refusals(operation: Operation, options: unknown): Promise<{ errors: unknown[]; sent: number }> {
  const { api, fetch } = client();
  const first = await api.request(operation, options as OperationCallOptions).catch((caught: unknown) => caught);
  await api.request(getThing, { path: { id: 1 } });
  const loaded = await api.request(operation, options as OperationCallOptions).catch((caught: unknown) => caught);
  return { errors: [first, loaded], sent: fetch.mock.calls.length - 1 };
}

describe('sendCall refuses per-call options no request can carry, before sending', () => {
  it('a header value with a line break: a RequestValidationError naming the header, never quoting the value', async () => {
    const secret = 'Bearer s3cret-per-call-value';
    const { errors, sent } = await refusals(getThing, {
      path: { id: 1 },
      headers: { authorization: `${secret}\nx-injected: 1` },
    });
    for (const error of errors) {
      // It was fetch's TypeError: `Headers.append: "Bearer s3cret…" is an invalid header value`.
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ operation: 'getProduct', field: 'headers.authorization' });
      expect(String(error)).not.toContain('s3cret');
      expect(JSON.stringify(error)).not.toContain('s3cret');
    }
    expect(sent).toBe(0);
  });

  it('headers given as pairs are checked the same way', async () => {
    const { errors, sent } = await refusals(getThing, {
      path: { id: 1 },
      headers: [['x-api-key', 'k3y-secret\r\nx-injected: 1']],
    });
    for (const error of errors) {
      expect(error).toMatchObject({ name: 'RequestValidationError', field: 'headers.x-api-key' });
      expect(String(error)).not.toContain('k3y-secret');
    }
    expect(sent).toBe(0);
  });

  it('a signal that is no AbortSignal: a RequestValidationError naming signal', async () => {
    const { errors, sent } = await refusals(getThing, { path: { id: 1 }, signal: {} });
    for (const error of errors) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ field: 'signal' });
      expect((error as Error).message).toBe(
        'Invalid request for getProduct: signal must be an AbortSignal, got object',
      );
    }
    expect(sent).toBe(0);
  });

  it('null for the options: a RequestValidationError naming options, not a TypeError reading .signal', async () => {
    const { errors, sent } = await refusals(getThing, null);
    for (const error of errors) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as Error).message).toBe('Invalid request for getProduct: options must be an object, got null');
    }
    expect(sent).toBe(0);
  });

  it.each([
    ['a BigInt', { product: { price: 10n } }],
    [
      'a cycle',
      (() => {
        const body: Record<string, unknown> = {};
        body.self = body;
        return body;
      })(),
    ],
    ['a function', () => undefined],
  ])('a body holding %s: a RequestValidationError naming body', async (_label, body) => {
    const { errors, sent } = await refusals(postThing, { body });
    for (const error of errors) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ operation: 'createProduct', field: 'body' });
      expect((error as Error).message).toBe(
        'Invalid request for createProduct: body cannot be encoded as JSON (a BigInt, a cycle, a function, …)',
      );
    }
    expect(sent).toBe(0);
  });

  it('still sends good per-call headers and signals', async () => {
    const { api, fetch } = client();
    await api.request(getThing, {
      path: { id: 1 },
      headers: { 'x-trace': 'abc', 'x-skip': undefined } as OperationCallOptions['headers'],
      signal: new AbortController().signal,
    });
    const { headers } = onlyRequest(fetch);
    expect(headers.get('x-trace')).toBe('abc');
    expect(headers.has('x-skip')).toBe(false);
  });
});
