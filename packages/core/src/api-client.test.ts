import { fetchStub, jsonFetch } from '@agent-apis/test-utils/fetch';
import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from './api-client.js';
import { RateLimitError } from './internal/call/answer-errors.js';
import {
  APIUserAbortError,
  ConfigurationError,
  InvalidBaseUrlError,
  RequestValidationError,
} from './internal/call/errors.js';
import { getThing, testService as service } from './test-support.js';

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

  it('starts no load for a call whose signal is already aborted, so a failing load has no one to go unhandled to', async () => {
    const loader = vi.fn(() => Promise.reject(new Error('offline')));
    const client = clientWith(loader);
    await expect(client.request(getThing, { path: { name: 'a' }, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(loader).not.toHaveBeenCalled();
  });

  it('waits for a slow load under an infinite timeout instead of failing at once', async () => {
    const client = clientWith(() => new Promise((resolve) => setTimeout(() => resolve({}), 50)));
    const answer = await client.request(getThing, { path: { name: 'a' }, timeout: Number.POSITIVE_INFINITY });
    expect(answer.data).toEqual({ ok: true });
  });

  it('adds one listener to a signal that many first calls share', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const client = clientWith(() => new Promise((resolve) => setTimeout(() => resolve({}), 20)));
      const { signal } = new AbortController();
      await Promise.all(Array.from({ length: 30 }, () => client.request(getThing, { path: { name: 'a' }, signal })));
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});

describe('ApiClient: limits checked before anything is sent', () => {
  it.each([
    [{ timeout: -1 }, /TestClient timeout must be a number of milliseconds ≥ 0/],
    [{ timeout: Number.NaN }, /TestClient timeout must be/],
    [{ maxRetries: 1.5 }, /TestClient maxRetries must be a whole number ≥ 0, got 1.5/],
    [{ maxRetryAfter: -5 }, /TestClient maxRetryAfter must be a number of milliseconds ≥ 0/],
    [{ maxResponseBytes: 0 }, /TestClient maxResponseBytes must be a whole number of bytes > 0/],
  ])(
    'refuses the client option %j at its first call, with a ConfigurationError naming it, sending nothing',
    async (limits, message) => {
      const fetch = jsonFetch({});
      const client = new ApiClient(
        { fetch, ...limits },
        { client: 'TestClient', baseUrl: 'https://api.test', ...service },
      );
      const error = await client.request(getThing, { path: { name: 'a' } }).catch((caught) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(message);
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it("refuses a call's own timeout or retries with a RequestValidationError naming the field", async () => {
    const fetch = jsonFetch({ ok: true });
    const client = clientWith(async () => ({}), fetch);
    const error = await client.request(getThing, { path: { name: 'a' }, timeout: -5 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ field: 'timeout', operation: 'getThing' });
    await expect(client.request(getThing, { path: { name: 'a' }, maxRetries: -1 })).rejects.toMatchObject({
      field: 'maxRetries',
    });
    // Also on a client's very first call, while its call path is still loading.
    const fresh = clientWith(() => new Promise((resolve) => setTimeout(() => resolve({}), 20)), fetch);
    await expect(fresh.request(getThing, { path: { name: 'a' }, timeout: -5 })).rejects.toMatchObject({
      name: 'RequestValidationError',
      field: 'timeout',
    });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('ApiClient: maxRetryAfter', () => {
  it('fails at once with retryAfter when the server asks for a longer wait than maxRetryAfter', async () => {
    const fetch = fetchStub(() => new Response(null, { status: 429, headers: { 'retry-after': '2' } }));
    const client = new ApiClient(
      { fetch, maxRetryAfter: 1_000 },
      { client: 'TestClient', baseUrl: 'https://api.test', ...service },
    );
    const error = await client.request(getThing, { path: { name: 'a' } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(2_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('ApiClient: credentials over plain http', () => {
  const build = (baseUrl: string, options: object = {}, authHeaders: Record<string, string> = { 'x-api-key': 'k' }) => {
    const fetch = jsonFetch({});
    const client = new ApiClient({ fetch, ...options }, { client: 'TestClient', baseUrl, ...service, authHeaders });
    return { fetch, call: () => client.request(getThing, { path: { name: 'a' } }) };
  };

  it('refuses credentials to a plain-http host that is not loopback before sending, naming allowInsecureHttp (finding: plain http accepted silently)', async () => {
    for (const baseUrl of ['http://api.example.com', 'http://10.0.0.5:8080', 'http://[2001:db8::1]']) {
      const { fetch, call } = build(baseUrl);
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidBaseUrlError);
      expect((error as Error).message).toMatch(/allowInsecureHttp/);
      expect(fetch).not.toHaveBeenCalled();
    }
  });

  it('allows it with allowInsecureHttp, to loopback, over https, and without credentials', async () => {
    await expect(build('http://api.example.com', { allowInsecureHttp: true }).call()).resolves.toBeDefined();
    for (const baseUrl of [
      'http://127.0.0.1:4010',
      'http://localhost:4010',
      'http://[::1]:4010',
      'https://api.example.com',
    ]) {
      await expect(build(baseUrl).call()).resolves.toBeDefined();
    }
    await expect(build('http://api.example.com', {}, {}).call()).resolves.toBeDefined();
  });
});
