import { jsonFetch } from '@agent-apis/test-utils/fetch';
import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from './api-client.js';
import { APIUserAbortError, ConfigurationError } from './input-errors.js';
import type { Operation } from './operations.js';

const getThing = {
  id: 'getThing',
  method: 'GET',
  path: '/things/{name}',
  pathParams: ['name'],
} as const satisfies Operation;
const service = { loadValidators: async () => ({ validators: {} }), validatorsEntry: '@agent-apis/test/validators' };

function clientWith(loadTransportOptions: () => Promise<object>, fetch = jsonFetch({ ok: true })) {
  return new ApiClient(
    { fetch, maxRetries: 0 },
    { client: 'TestClient', baseUrl: 'https://api.test', ...service, loadTransportOptions },
  );
}

describe('ApiClient: the call path loaded at the first call', () => {
  it('loads once for many calls that arrive together', async () => {
    const loader = vi.fn(async () => ({}));
    const client = clientWith(loader);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client.request(getThing, { path: { name: 'a' } })),
    );
    expect(answers.map((answer) => answer.data)).toEqual(Array.from({ length: 20 }, () => ({ ok: true })));
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('gives up a load that hangs at the call timeout, with a typed error, and sends nothing', async () => {
    const fetch = jsonFetch({ ok: true });
    const client = clientWith(() => new Promise(() => undefined), fetch);
    const error = await client.request(getThing, { path: { name: 'a' }, timeout: 30 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/TestClient could not load its transport module within 30 ms/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("gives up a load that hangs when the caller's signal aborts", async () => {
    const client = clientWith(() => new Promise(() => undefined));
    const controller = new AbortController();
    const call = client.request(getThing, { path: { name: 'a' }, signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    const already = client.request(getThing, { path: { name: 'a' }, signal: AbortSignal.abort() });
    await expect(already).rejects.toMatchObject({ name: 'APIUserAbortError', operation: 'getThing' });
  });

  it('turns a loader that throws into a ConfigurationError and loads again at the next call', async () => {
    let calls = 0;
    const client = clientWith(() => {
      calls++;
      if (calls === 1) throw new TypeError('boom at once');
      return Promise.resolve({});
    });
    await expect(client.request(getThing, { path: { name: 'a' } })).rejects.toBeInstanceOf(ConfigurationError);
    await expect(client.request(getThing, { path: { name: 'a' } })).resolves.toMatchObject({ data: { ok: true } });
    expect(calls).toBe(2);
  });
});
