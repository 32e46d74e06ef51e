import { createFetch } from '@agent-apis/test-utils/operation-requests';
import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../api-client.js';
import { sendOperation } from '../../api-promise.js';
import { APIConnectionError, APIConnectionTimeoutError } from './answer-errors.js';
import { ResponseParseError } from './errors.js';
import { createTransport } from './transport.js';

/** A 200 whose body sends `first` and then never finishes. */
function stallingResponse(first: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

/** A 200 whose body sends `first` and then breaks off. */
function brokenResponse(first: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      controller.error(new TypeError('terminated'));
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

const noWait = async () => {};

describe('response bodies read inside the attempt', () => {
  it("times out a body that stalls at the call's deadline, with no attempt after it", async () => {
    const fetch = vi.fn(async () => stallingResponse('{"total":'));
    const transport = createFetch(createTransport, { fetch, timeout: 50, maxRetries: 1, sleep: noWait });
    await expect(transport('https://api.test/stats')).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('turns a body that breaks off into a connection error after retrying, and recovers when a retry succeeds', async () => {
    const fetch = vi
      .fn()
      .mockImplementationOnce(async () => brokenResponse('{"to'))
      .mockImplementationOnce(async () => Response.json({ total: 3 }));
    const transport = createFetch(createTransport, { fetch, maxRetries: 1, sleep: noWait });
    const response = await transport('https://api.test/stats');
    expect(await response.json()).toEqual({ total: 3 });

    const alwaysBroken = createFetch(createTransport, {
      fetch: async () => brokenResponse('{"to'),
      maxRetries: 1,
      sleep: noWait,
    });
    await expect(alwaysBroken('https://api.test/stats')).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('never retries a POST whose body broke off', async () => {
    const fetch = vi.fn(async () => brokenResponse('{"de'));
    const transport = createFetch(createTransport, { fetch, maxRetries: 3, sleep: noWait });
    await expect(transport('https://api.test/decide', { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(
      APIConnectionError,
    );
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('operation calls', () => {
  it('turn a body that is not valid JSON into ResponseParseError without quoting the body', async () => {
    const client = new ApiClient(
      {
        fetch: async () =>
          new Response('{"secret":"sk_ent0_canary', { headers: { 'content-type': 'application/json' } }),
      },
      {
        client: 'TestClient',
        baseUrl: 'https://api.test',
        loadValidators: async () => ({ validators: {} }),
        validatorsEntry: '@agent-apis/test/validators',
      },
    );
    const getStats = {
      id: 'getStats',
      method: 'GET',
      path: '/api/stats',
      pathParams: [],
      query: {},
      bodyRequired: false,
    } as const;
    const error = await sendOperation(client, getStats).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect(String(error)).toBe('ResponseParseError: Response of getStats (GET /api/stats) is not valid JSON');
    expect(JSON.stringify(error)).not.toContain('sk_ent0');
  });
});

describe('a success answer that is not the JSON the operation promises', () => {
  const html = () => new Response('<html>502</html>', { headers: { 'content-type': 'text/html' } });

  it('is refused with ResponseParseError when the call expects JSON, and passed through otherwise', async () => {
    const transport = createTransport({ fetch: async () => html() });
    await expect(
      transport.send({ method: 'GET', url: 'https://api.test/api/stats', expectJson: true }),
    ).rejects.toThrow(/is not JSON as its spec says \(got text\/html\)/);
    const text = await transport.send({ method: 'GET', url: 'https://api.test/llms.txt' });
    await expect(text.text()).resolves.toBe('<html>502</html>');
  });

  it('is expected from an operation whose descriptor leaves successJson out; only successJson: false takes text', async () => {
    const client = new ApiClient(
      { fetch: async () => html() },
      {
        client: 'TestClient',
        baseUrl: 'https://api.test',
        loadValidators: async () => ({ validators: {} }),
        validatorsEntry: '@agent-apis/test/validators',
      },
    );
    const stats = { id: 'getStats', method: 'GET', path: '/api/stats' } as const;
    await expect(sendOperation(client, stats)).rejects.toThrow(ResponseParseError);
    await expect(sendOperation(client, { ...stats, successJson: false })).resolves.toBe('<html>502</html>');
  });

  it('accepts JSON bodies of any shape, a JSON string included', async () => {
    const transport = createTransport({ fetch: async () => Response.json('Product deleted') });
    const response = await transport.send({ method: 'DELETE', url: 'https://api.test/p/1.json', expectJson: true });
    expect(await response.json()).toBe('Product deleted');
  });
});
