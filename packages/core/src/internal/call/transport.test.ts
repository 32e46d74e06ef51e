import { setMaxListeners } from 'node:events';
import { requestOf, scriptedFetch } from '@agent-apis/test-utils/fetch';
import { createFetch } from '@agent-apis/test-utils/operation-requests';
import { describe, expect, it, vi } from 'vitest';
import { HttpCache } from '../../http-cache.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from './answer-errors.js';
import { APIUserAbortError, RequestValidationError } from './errors.js';
import type { Logger } from './logger.js';
import { type CreateFetchOptions, createTransport, type TransportCall } from './transport.js';

const URL_ = 'https://api.example.test/v1/products/p1.json';

/** Answers with the given statuses in order, then 200. */
function statuses(...codes: number[]) {
  return scriptedFetch((_request, call) => {
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
  const send = createFetch(createTransport, {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    ...options,
  });
  const transportOf = createTransport({
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    ...options,
  });
  const call = (fields: Partial<TransportCall> = {}) => transportOf.send({ method: 'GET', url: URL_, ...fields });
  return { send, sleeps, call };
}

describe('createFetch: success and errors', () => {
  it('returns a 2xx response untouched', async () => {
    const server = scriptedFetch(() => Response.json({ id: 'p1' }));
    const { send } = transport({ fetch: server.fetch });
    const response = await send(URL_);
    expect(await response.json()).toEqual({ id: 'p1' });
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('throws an unsolicited 304 as a redacted APIError, not a raw object holding the credentials', async () => {
    const server = statuses(304);
    const { call } = transport({ fetch: server.fetch });
    const error = await call({ headers: { authorization: 'Bearer sk_live_secret_token' } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(304);
    expect(JSON.stringify((error as APIError).request)).not.toContain('sk_live_secret_token');
  });

  it('throws the APIError subclass with the parsed JSON body', async () => {
    const server = scriptedFetch(() => Response.json({ message: 'limit must be positive' }, { status: 400 }));
    const { send } = transport({ fetch: server.fetch });
    const error = await send(`${URL_}?limit=0`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).body).toEqual({ message: 'limit must be positive' });
    expect((error as BadRequestError).message).toBe(
      '400 Bad Request on GET /v1/products/p1.json at https://api.example.test/v1/products/p1.json?limit=0: limit must be positive',
    );
  });

  it('names the operation the call names, sending no option header', async () => {
    const server = statuses(404);
    const { call } = transport({ fetch: server.fetch });
    const operation = { id: 'getProduct', route: 'GET /v1/products/{id}.json' };
    await expect(call({ operation })).rejects.toThrow('404 Not Found on getProduct (GET /v1/products/{id}.json)');
    expect([...(server.received[0]?.headers.keys() ?? [])].filter((name) => name.startsWith('x-agent-apis'))).toEqual(
      [],
    );
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
    const server = scriptedFetch(() => {
      throw new TypeError('fetch failed');
    });
    const { send } = transport({ fetch: server.fetch });
    await expect(send(URL_, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(APIConnectionError);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('re-sends the body on every attempt, one new Request per attempt', async () => {
    const server = statuses(503, 503);
    const bodies: string[] = [];
    const requests = new Set<Request>();
    const keepingFetch: typeof fetch = async (input, init) => {
      const request = requestOf(input, init);
      requests.add(request);
      bodies.push(await request.text());
      return server.fetch(new Request(request.url, { method: request.method }));
    };
    const { call } = transport({ fetch: keepingFetch });
    expect((await call({ method: 'PUT', body: JSON.stringify({ name: 'Mug' }) })).status).toBe(200);
    expect(bodies).toEqual(['{"name":"Mug"}', '{"name":"Mug"}', '{"name":"Mug"}']);
    expect(requests.size).toBe(3);
  });

  it('waits as long as Retry-After says (seconds and HTTP date)', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const server = scriptedFetch((_request, call) => {
      const retryAfter = call === 1 ? '2' : new Date(now + 4_000).toUTCString();
      return call < 3 ? new Response(null, { status: 429, headers: { 'retry-after': retryAfter } }) : new Response();
    });
    const { send, sleeps } = transport({ fetch: server.fetch, now: () => now });
    expect((await send(URL_)).status).toBe(200);
    expect(sleeps).toEqual([2_000, 4_000]);
  });

  it('honours retry-after-ms', async () => {
    const server = scriptedFetch((_request, call) =>
      call === 1 ? new Response(null, { status: 503, headers: { 'retry-after-ms': '75' } }) : new Response(),
    );
    const { send, sleeps } = transport({ fetch: server.fetch });
    await send(URL_);
    expect(sleeps).toEqual([75]);
  });

  it('surfaces a 429 at once when Retry-After exceeds the cap', async () => {
    const server = scriptedFetch(() => new Response('quota', { status: 429, headers: { 'retry-after': '3600' } }));
    const { send, sleeps } = transport({ fetch: server.fetch });
    const error = await send(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(sleeps).toEqual([]);
  });

  it('obeys x-should-retry in both directions', async () => {
    const refuse = scriptedFetch(() => new Response(null, { status: 503, headers: { 'x-should-retry': 'false' } }));
    await expect(transport({ fetch: refuse.fetch }).send(URL_)).rejects.toBeInstanceOf(InternalServerError);
    expect(refuse.fetch).toHaveBeenCalledTimes(1);

    const insist = scriptedFetch((_request, call) =>
      call === 1 ? new Response(null, { status: 400, headers: { 'x-should-retry': 'true' } }) : new Response(),
    );
    expect((await transport({ fetch: insist.fetch }).send(URL_)).status).toBe(200);
    expect(insist.fetch).toHaveBeenCalledTimes(2);
  });

  it('retries a network failure, then throws APIConnectionError with the cause', async () => {
    const server = scriptedFetch(() => {
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    });
    const { send } = transport({ fetch: server.fetch });
    const error = await send(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'Connection error on GET /v1/products/p1.json to api.example.test:443: fetch failed',
    );
    expect(((error as Error).cause as Error).name).toBe('TypeError');
    expect(server.fetch).toHaveBeenCalledTimes(3);
  });

  it('lets a call change maxRetries as a field of the call', async () => {
    const server = statuses(503, 503);
    const { call } = transport({ fetch: server.fetch, maxRetries: 5 });
    await expect(call({ maxRetries: 0, headers: { accept: 'application/json' } })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect([...(server.received[0]?.headers.keys() ?? [])]).toEqual(['accept']);
  });

  it('reports each retry to onRetry with attempt, delay and reason', async () => {
    const server = statuses(503, 429);
    const events: string[] = [];
    const { call } = transport({
      fetch: server.fetch,
      hooks: { onRetry: ({ attempt, delayMs, reason }) => void events.push(`${attempt} ${delayMs} ${reason}`) },
    });
    await call();
    expect(events).toEqual(['1 500 status 503', '2 1000 status 429']);
  });
});

describe('createFetch: timeouts and aborts', () => {
  it('100 concurrent calls on one signal put one listener on it: no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      let release = () => {};
      const allInFlight = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inFlight = 0;
      const server = scriptedFetch(async () => {
        inFlight += 1;
        if (inFlight === 100) release();
        await allInFlight;
        return Response.json({ ok: true });
      });
      const { call } = transport({ fetch: server.fetch });
      const controller = new AbortController();
      // Node's default threshold, set explicitly: the test runner may have raised it for its own signals.
      setMaxListeners(10, controller.signal);
      const added = vi.spyOn(controller.signal, 'addEventListener');
      const answers = await Promise.all(Array.from({ length: 100 }, () => call({ signal: controller.signal })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
      expect(added).toHaveBeenCalledTimes(1);
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.includes('MaxListeners'))).toEqual([]);
      // Aborting after every call settled reaches none of them.
      controller.abort();
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("throws APIConnectionTimeoutError at the call's timeout, with no retry after it", async () => {
    const server = scriptedFetch(neverAnswers);
    const { send, sleeps } = transport({ fetch: server.fetch, timeout: 15 });
    const error = await send(URL_).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).message).toBe(
      'Request timed out after 15 ms on GET /v1/products/p1.json',
    );
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(sleeps).toEqual([]);
  });

  it('times out even when the underlying fetch ignores the signal', async () => {
    const server = scriptedFetch(() => new Promise<Response>(() => {}));
    const { send } = transport({ fetch: server.fetch, timeout: 10, maxRetries: 0 });
    await expect(send(URL_)).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('sends no signal when the caller passes none, and cancels the body of an answer that comes after the timeout', async () => {
    let cancelled = false;
    let answered = () => {};
    const answeredLate = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const server = scriptedFetch(async (request) => {
      expect(request.signal.aborted).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 40));
      const body = new ReadableStream({
        cancel() {
          cancelled = true;
        },
      });
      answered();
      return new Response(body);
    });
    const { send } = transport({ fetch: server.fetch, timeout: 10, maxRetries: 0 });
    await expect(send(URL_)).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    await answeredLate;
    await vi.waitFor(() => expect(cancelled).toBe(true));
  });

  it('gives the request a signal that aborts on timeout when the caller passes one', async () => {
    const server = scriptedFetch(neverAnswers);
    const { call } = transport({ fetch: server.fetch, timeout: 10, maxRetries: 0 });
    await expect(call({ signal: new AbortController().signal })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(server.received[0]?.signal.aborted).toBe(true);
  });

  it('recovers when a retry answers before the deadline', async () => {
    const server = scriptedFetch((_request, call) =>
      call === 1 ? new Response(null, { status: 503 }) : new Response('late but fine'),
    );
    const { send } = transport({ fetch: server.fetch, timeout: 60_000 });
    expect(await (await send(URL_)).text()).toBe('late but fine');
  });

  it('takes the timeout from the call', async () => {
    const server = scriptedFetch(neverAnswers);
    const { call } = transport({ fetch: server.fetch, timeout: 60_000, maxRetries: 0 });
    const error = await call({ timeout: 5 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).timeoutMs).toBe(5);
  });

  it('turns a caller abort into APIUserAbortError at once, without retrying', async () => {
    const server = scriptedFetch(neverAnswers);
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
    const send = createFetch(createTransport, {
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
    const { call } = transport({
      fetch: server.fetch,
      beforeRequest: (_request, context) => {
        events.push(`before ${context.attempt} ${context.operation}`);
      },
      afterResponse: (response, _request, context) => {
        events.push(`after ${context.attempt} ${response.status}`);
      },
    });
    await call({ operation: { id: 'getProduct' } });
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
    const server = scriptedFetch(() => Response.json({ id: 'p1' }, { headers: { 'cache-control': 'max-age=60' } }));
    const { send } = transport({ fetch: server.fetch, cache: new HttpCache() });
    await send(URL_);
    const second = await send(URL_);
    expect(await second.json()).toEqual({ id: 'p1' });
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('refuses a call header no request can carry with a RequestValidationError that does not quote it', async () => {
    const server = scriptedFetch(() => Response.json({}));
    const error = await createTransport({ fetch: server.fetch })
      .send({ method: 'GET', url: URL_, headers: { authorization: 'Bearer s3cret-value\nx' } })
      .catch((caught: unknown) => caught);
    // It was fetch's TypeError, whose message quotes the value.
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operation: 'GET', field: 'headers.authorization' });
    expect(String(error)).not.toContain('s3cret');
    expect(server.fetch).not.toHaveBeenCalled();
  });
});
