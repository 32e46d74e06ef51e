import { describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from './errors.js';
import { type CreateFetchOptions, createFetch, REQUEST_OPTION_HEADERS, requestOptionHeaders } from './fetch.js';
import { HttpCache } from './http-cache.js';
import type { Logger } from './logger.js';

const URL_ = 'https://api.example.test/v1/products/p1.json';

/** A fake upstream: records every request it receives and answers with `handler`. */
function upstream(handler: (request: Request, call: number) => Response | Promise<Response>) {
  const received: Request[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const request = new Request(input, init);
    received.push(request);
    return handler(request, received.length);
  });
  return { fetch, received };
}

/** Answers with the given statuses in order, then 200. */
function statuses(...codes: number[]) {
  return upstream((_request, call) => {
    const status = codes[call - 1] ?? 200;
    return new Response(status === 304 ? null : `answer ${call}`, { status });
  });
}

/** Never answers, but rejects when the request's signal aborts (as a real fetch does). */
function neverAnswers(request: Request): Promise<Response> {
  return new Promise((_resolve, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason));
  });
}

/** createFetch with an instant, recording sleep and no jitter. */
function transport(options: CreateFetchOptions) {
  const sleeps: number[] = [];
  const send = createFetch({
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    ...options,
  });
  return { send, sleeps };
}

describe('createFetch: success and errors', () => {
  it('returns a 2xx response untouched', async () => {
    const server = upstream(() => Response.json({ id: 'p1' }));
    const { send } = transport({ fetch: server.fetch });
    const response = await send(URL_);
    expect(await response.json()).toEqual({ id: 'p1' });
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('passes a 304 through instead of throwing', async () => {
    const server = statuses(304);
    const { send } = transport({ fetch: server.fetch });
    expect((await send(URL_)).status).toBe(304);
  });

  it('throws the APIError subclass with the parsed JSON body', async () => {
    const server = upstream(() => Response.json({ message: 'limit must be positive' }, { status: 400 }));
    const { send } = transport({ fetch: server.fetch });
    const error = await send(`${URL_}?limit=0`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).body).toEqual({ message: 'limit must be positive' });
    expect((error as BadRequestError).message).toBe(
      '400 Bad Request on GET /v1/products/p1.json: limit must be positive',
    );
  });

  it('names the operation through operationFor, overridden by the per-call header', async () => {
    const server = statuses(404, 404);
    const { send } = transport({
      fetch: server.fetch,
      operationFor: () => ({ id: 'getProduct', route: 'GET /v1/products/{id}.json' }),
    });
    await expect(send(URL_)).rejects.toThrow('404 Not Found on getProduct (GET /v1/products/{id}.json)');
    const headers = requestOptionHeaders({ operation: { id: 'fetchOne', route: 'GET /v1/things/{id}' } });
    await expect(send(URL_, { headers })).rejects.toThrow('404 Not Found on fetchOne (GET /v1/things/{id})');
  });
});

describe('createFetch: retries', () => {
  it('retries a 503 and returns the success that follows', async () => {
    const server = statuses(503);
    const { send, sleeps } = transport({ fetch: server.fetch });
    const response = await send(URL_);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('answer 2');
    expect(server.fetch).toHaveBeenCalledTimes(2);
    expect(sleeps).toEqual([500]);
  });

  it('gives up after maxRetries with the last error', async () => {
    const server = statuses(503, 502, 500, 200);
    const { send, sleeps } = transport({ fetch: server.fetch });
    const error = await send(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(500);
    expect(server.fetch).toHaveBeenCalledTimes(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('never retries a POST', async () => {
    const server = statuses(503);
    const { send, sleeps } = transport({ fetch: server.fetch });
    await expect(send(URL_, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(sleeps).toEqual([]);
  });

  it('never retries a POST after a network failure either', async () => {
    const server = upstream(() => {
      throw new TypeError('fetch failed');
    });
    const { send } = transport({ fetch: server.fetch });
    await expect(send(URL_, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(APIConnectionError);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('re-sends the request body on every attempt and leaves the caller request unread', async () => {
    const server = statuses(503, 503);
    const bodies: string[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      bodies.push(await request.clone().text());
      return server.fetch(request);
    };
    const { send } = transport({ fetch: recordingFetch });
    const callerRequest = new Request(URL_, { method: 'PUT', body: JSON.stringify({ name: 'Mug' }) });
    expect((await send(callerRequest)).status).toBe(200);
    expect(bodies).toEqual(['{"name":"Mug"}', '{"name":"Mug"}', '{"name":"Mug"}']);
    expect(callerRequest.bodyUsed).toBe(false);
  });

  it('waits as long as Retry-After says (seconds and HTTP date)', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const server = upstream((_request, call) => {
      const retryAfter = call === 1 ? '2' : new Date(now + 4_000).toUTCString();
      return call < 3 ? new Response(null, { status: 429, headers: { 'retry-after': retryAfter } }) : new Response();
    });
    const { send, sleeps } = transport({ fetch: server.fetch, now: () => now });
    expect((await send(URL_)).status).toBe(200);
    expect(sleeps).toEqual([2_000, 4_000]);
  });

  it('honours retry-after-ms', async () => {
    const server = upstream((_request, call) =>
      call === 1 ? new Response(null, { status: 503, headers: { 'retry-after-ms': '75' } }) : new Response(),
    );
    const { send, sleeps } = transport({ fetch: server.fetch });
    await send(URL_);
    expect(sleeps).toEqual([75]);
  });

  it('surfaces a 429 at once when Retry-After exceeds the cap', async () => {
    const server = upstream(() => new Response('quota', { status: 429, headers: { 'retry-after': '3600' } }));
    const { send, sleeps } = transport({ fetch: server.fetch });
    const error = await send(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(sleeps).toEqual([]);
  });

  it('obeys x-should-retry in both directions', async () => {
    const refuse = upstream(() => new Response(null, { status: 503, headers: { 'x-should-retry': 'false' } }));
    await expect(transport({ fetch: refuse.fetch }).send(URL_)).rejects.toBeInstanceOf(InternalServerError);
    expect(refuse.fetch).toHaveBeenCalledTimes(1);

    const insist = upstream((_request, call) =>
      call === 1 ? new Response(null, { status: 400, headers: { 'x-should-retry': 'true' } }) : new Response(),
    );
    expect((await transport({ fetch: insist.fetch }).send(URL_)).status).toBe(200);
    expect(insist.fetch).toHaveBeenCalledTimes(2);
  });

  it('retries a network failure, then throws APIConnectionError with the cause', async () => {
    const server = upstream(() => {
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    });
    const { send } = transport({ fetch: server.fetch });
    const error = await send(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe('Connection error on GET /v1/products/p1.json: fetch failed');
    expect(((error as Error).cause as Error).name).toBe('TypeError');
    expect(server.fetch).toHaveBeenCalledTimes(3);
  });

  it('lets a call change maxRetries through its option header, which never reaches the server', async () => {
    const server = statuses(503, 503);
    const { send } = transport({ fetch: server.fetch, maxRetries: 5 });
    const headers = { ...requestOptionHeaders({ maxRetries: 0 }), accept: 'application/json' };
    await expect(send(URL_, { headers })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    const sent = server.received[0]?.headers;
    expect(sent?.get('accept')).toBe('application/json');
    expect(sent?.has(REQUEST_OPTION_HEADERS.maxRetries)).toBe(false);
  });

  it('rejects malformed option headers', async () => {
    const { send } = transport({ fetch: statuses().fetch });
    await expect(send(URL_, { headers: { [REQUEST_OPTION_HEADERS.timeout]: 'soon' } })).rejects.toThrow(
      'x-agent-apis-timeout must be an integer ≥ 1, got "soon"',
    );
  });
});

describe('createFetch: timeouts and aborts', () => {
  it('retries a timed-out attempt, then throws APIConnectionTimeoutError', async () => {
    const server = upstream(neverAnswers);
    const { send, sleeps } = transport({ fetch: server.fetch, timeout: 15 });
    const error = await send(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).message).toBe(
      'Request timed out after 15 ms on GET /v1/products/p1.json',
    );
    expect(server.fetch).toHaveBeenCalledTimes(3);
    expect(sleeps).toHaveLength(2);
  });

  it('times out even when the underlying fetch ignores the signal', async () => {
    const server = upstream(() => new Promise<Response>(() => {}));
    const { send } = transport({ fetch: server.fetch, timeout: 10, maxRetries: 0 });
    await expect(send(URL_)).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('recovers when a retry answers in time', async () => {
    const server = upstream((request, call) => (call === 1 ? neverAnswers(request) : new Response('late but fine')));
    const { send } = transport({ fetch: server.fetch, timeout: 15 });
    expect(await (await send(URL_)).text()).toBe('late but fine');
  });

  it('takes the timeout from the per-call header', async () => {
    const server = upstream(neverAnswers);
    const { send } = transport({ fetch: server.fetch, timeout: 60_000, maxRetries: 0 });
    const error = await send(URL_, { headers: requestOptionHeaders({ timeout: 5 }) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).timeoutMs).toBe(5);
  });

  it('turns a caller abort into APIUserAbortError at once, without retrying', async () => {
    const server = upstream(neverAnswers);
    const { send, sleeps } = transport({ fetch: server.fetch });
    const controller = new AbortController();
    const pending = send(URL_, { signal: controller.signal });
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalledTimes(1));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(sleeps).toEqual([]);
  });

  it('does not send at all when the signal is already aborted', async () => {
    const server = statuses();
    const { send } = transport({ fetch: server.fetch });
    await expect(send(URL_, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('stops waiting between retries when the caller aborts', async () => {
    const server = statuses(503, 503);
    const controller = new AbortController();
    const send = createFetch({
      fetch: server.fetch,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          controller.abort();
        }),
    });
    await expect(send(URL_, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('createFetch: headers, hooks, logging, cache', () => {
  it('adds default headers the request does not set itself', async () => {
    const server = statuses();
    const { send } = transport({ fetch: server.fetch, defaultHeaders: { 'user-agent': 'agent-apis', accept: '*/*' } });
    await send(URL_, { headers: { accept: 'application/json' } });
    const sent = server.received[0]?.headers;
    expect(sent?.get('user-agent')).toBe('agent-apis');
    expect(sent?.get('accept')).toBe('application/json');
  });

  it('runs beforeRequest before every attempt and afterResponse after every response', async () => {
    const server = statuses(503);
    const events: string[] = [];
    const { send } = transport({
      fetch: server.fetch,
      operationFor: () => ({ id: 'getProduct' }),
      beforeRequest: (_request, context) => {
        events.push(`before ${context.attempt} ${context.operation}`);
      },
      afterResponse: (response, _request, context) => {
        events.push(`after ${context.attempt} ${response.status}`);
      },
    });
    await send(URL_);
    expect(events).toEqual(['before 1 getProduct', 'after 1 503', 'before 2 getProduct', 'after 2 200']);
  });

  it('turns an abort while beforeRequest waits into APIUserAbortError', async () => {
    const server = statuses();
    const controller = new AbortController();
    const { send } = transport({
      fetch: server.fetch,
      beforeRequest: (_request, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
          controller.abort();
        }),
    });
    await expect(send(URL_, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it('logs attempts and retries at the configured level only', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      debug: (message) => lines.push(`debug ${message}`),
      info: (message) => lines.push(`info ${message}`),
      warn: (message) => lines.push(`warn ${message}`),
      error: (message) => lines.push(`error ${message}`),
    };
    await transport({ fetch: statuses(503).fetch, logger, logLevel: 'info' }).send(URL_);
    expect(lines).toEqual(['info Retrying GET /v1/products/p1.json after status 503 in 500 ms (retry 1 of 2)']);

    lines.length = 0;
    await transport({ fetch: statuses(503).fetch, logger }).send(URL_);
    expect(lines).toEqual([]);
  });

  it('answers repeated GETs from the cache when one is given', async () => {
    const server = upstream(() => Response.json({ id: 'p1' }, { headers: { 'cache-control': 'max-age=60' } }));
    const { send } = transport({ fetch: server.fetch, cache: new HttpCache() });
    await send(URL_);
    const second = await send(URL_);
    expect(await second.json()).toEqual({ id: 'p1' });
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });
});
