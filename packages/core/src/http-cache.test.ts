import { createServer } from 'node:http';
import { scriptedFetch } from '@agent-apis/test-utils/fetch';
import { describe, expect, it, vi } from 'vitest';
import { HttpCache } from './http-cache.js';
import { createTransport } from './internal/call/transport.js';
import { CACHE_STATUS_HEADER } from './internal/fleet/cache-entry.js';
import { parseCacheControl } from './internal/fleet/http-cache-engine.js';

const URL_ = 'https://directory.example.test/v1/servers?limit=10';

/** A cache on a hand-driven clock. */
function cacheWithClock(maxEntries?: number, maxBytes?: number) {
  const clock = { now: 0 };
  return { cache: new HttpCache({ maxEntries, maxBytes, now: () => clock.now }), clock };
}

describe('HttpCache', () => {
  it('serves a fresh copy within max-age without calling the origin again', async () => {
    const server = scriptedFetch((_request, call) =>
      Response.json({ call }, { headers: { 'cache-control': 'public, max-age=60, s-maxage=600' } }),
    );
    const { cache, clock } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    const first = await send(URL_);
    expect(await first.json()).toEqual({ call: 1 });
    clock.now = 59_000;
    const second = await send(URL_);
    const third = await send(URL_);
    expect(second.headers.get(CACHE_STATUS_HEADER)).toBe('hit');
    expect(await second.json()).toEqual({ call: 1 });
    expect(await third.json()).toEqual({ call: 1 });
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('hands out an independent Response every time', async () => {
    const server = scriptedFetch(() => new Response('body', { headers: { 'cache-control': 'max-age=60' } }));
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    const a = await send(URL_);
    a.headers.set('x-mutated', 'yes');
    await a.text();
    const b = await send(URL_);
    expect(b).not.toBe(a);
    expect(b.headers.has('x-mutated')).toBe(false);
    expect(await b.text()).toBe('body');
  });

  it('goes back to the origin once max-age (minus Age) has passed', async () => {
    const server = scriptedFetch(() => new Response('x', { headers: { 'cache-control': 'max-age=60', age: '50' } }));
    const { cache, clock } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    clock.now = 9_999;
    await send(URL_);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    clock.now = 10_000;
    await send(URL_);
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it('revalidates with If-None-Match and serves the cached body with the fresh headers on 304', async () => {
    const server = scriptedFetch((_request, call) =>
      call === 1
        ? Response.json({ servers: ['a'] }, { headers: { etag: '"v1"', 'cache-control': 'no-cache', 'x-served': '1' } })
        : new Response(null, { status: 304, headers: { etag: '"v1"', 'x-served': String(call) } }),
    );
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    const revalidated = await send(URL_);
    expect(server.received[1]?.headers.get('if-none-match')).toBe('"v1"');
    expect(revalidated.status).toBe(200);
    expect(revalidated.headers.get(CACHE_STATUS_HEADER)).toBe('revalidated');
    expect(revalidated.headers.get('x-served')).toBe('2');
    expect(await revalidated.json()).toEqual({ servers: ['a'] });
  });

  it('revalidates with If-Modified-Since when only Last-Modified is known, and stores a changed answer', async () => {
    const lastModified = 'Tue, 01 Jan 2030 00:00:00 GMT';
    const server = scriptedFetch(
      (_request, call) => new Response(`version ${call}`, { headers: { 'last-modified': lastModified } }),
    );
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    expect(await (await send(URL_)).text()).toBe('version 2');
    expect(server.received[1]?.headers.get('if-modified-since')).toBe(lastModified);
    expect(server.received[1]?.headers.has('if-none-match')).toBe(false);
  });

  it('does not store a no-store response', async () => {
    const server = scriptedFetch(
      () => new Response('secret', { headers: { 'cache-control': 'no-store, max-age=60' } }),
    );
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    await send(URL_);
    expect(server.fetch).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it('does not store error statuses', async () => {
    const server = scriptedFetch(
      () => new Response('gone', { status: 404, headers: { 'cache-control': 'max-age=60' } }),
    );
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    await send(URL_);
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const server = scriptedFetch(
      (request) => new Response(request.url, { headers: { 'cache-control': 'max-age=60' } }),
    );
    const { cache } = cacheWithClock(2);
    const send = cache.wrap(server.fetch);
    const [a, b, c] = ['https://x.test/a', 'https://x.test/b', 'https://x.test/c'];
    await send(a);
    await send(b);
    await send(a);
    await send(c);
    expect(cache.size).toBe(2);
    expect(server.fetch).toHaveBeenCalledTimes(3);
    await send(a);
    expect(server.fetch).toHaveBeenCalledTimes(3);
    await send(b);
    expect(server.fetch).toHaveBeenCalledTimes(4);
    expect(server.received.map((request) => request.url)).toEqual([a, b, c, b]);
  });

  it('keys entries by the headers named in Vary and by the credentials sent', async () => {
    const server = scriptedFetch(
      (request) =>
        new Response(`${request.headers.get('accept-language')} ${request.headers.get('authorization')}`, {
          headers: { 'cache-control': 'max-age=60', vary: 'Accept-Language' },
        }),
    );
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    const as = (language: string, token: string) =>
      send(URL_, { headers: { 'accept-language': language, authorization: `Bearer ${token}` } });
    expect(await (await as('en', 'token-one')).text()).toBe('en Bearer token-one');
    expect(await (await as('de', 'token-one')).text()).toBe('de Bearer token-one');
    expect(await (await as('de', 'token-two')).text()).toBe('de Bearer token-two');
    expect(await (await as('de', 'token-two')).text()).toBe('de Bearer token-two');
    expect(server.fetch).toHaveBeenCalledTimes(3);
  });

  it('keys entries by credentials sent in the query', async () => {
    const server = scriptedFetch(
      (request) =>
        new Response(new URL(request.url).searchParams.get('authtoken'), {
          headers: { 'cache-control': 'max-age=60' },
        }),
    );
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    const as = (token: string) => send(`${URL_}&login=shop&authtoken=${token}`);
    expect(await (await as('token-one')).text()).toBe('token-one');
    expect(await (await as('token-two')).text()).toBe('token-two');
    expect(await (await as('token-one')).text()).toBe('token-one');
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it('lets a request bypass the cache with no-store, or force revalidation with no-cache', async () => {
    const server = scriptedFetch((_request, call) =>
      call === 3
        ? new Response(null, { status: 304 })
        : new Response(`call ${call}`, { headers: { 'cache-control': 'max-age=60', etag: '"e"' } }),
    );
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    expect(await (await send(URL_, { headers: { 'cache-control': 'no-store' } })).text()).toBe('call 2');
    const forced = await send(URL_, { headers: { 'cache-control': 'no-cache' } });
    expect(server.received[2]?.headers.get('if-none-match')).toBe('"e"');
    expect(forced.headers.get(CACHE_STATUS_HEADER)).toBe('revalidated');
    expect(await forced.text()).toBe('call 1');
  });

  it('forgets a URL after a successful unsafe request to it', async () => {
    const server = scriptedFetch(() => new Response('x', { headers: { 'cache-control': 'max-age=60' } }));
    const { cache } = cacheWithClock();
    const send = cache.wrap(server.fetch);
    await send(URL_);
    await send(URL_, { method: 'DELETE' });
    await send(URL_);
    expect(server.fetch).toHaveBeenCalledTimes(3);
  });

  it('refuses a maxEntries that is not a positive integer', () => {
    expect(() => new HttpCache({ maxEntries: 0 })).toThrow(TypeError);
  });
});

describe('parseCacheControl', () => {
  it('maps directives to their values', () => {
    expect(parseCacheControl('Max-Age=60, no-cache, private="set-cookie"')).toEqual(
      new Map([
        ['max-age', '60'],
        ['no-cache', ''],
        ['private', 'set-cookie'],
      ]),
    );
  });
});

describe('HttpCache engine loading', () => {
  it('loads no engine until its first request; a failed load is a ConfigurationError, tried again next time', async () => {
    vi.resetModules();
    let failLoad = true;
    let loads = 0;
    vi.doMock('./internal/fleet/http-cache-engine.js', async (importOriginal) => {
      loads++;
      if (failLoad) throw new Error('chunk could not be fetched');
      return importOriginal();
    });
    try {
      const { HttpCache: FreshCache } = await import('./http-cache.js');
      const { ConfigurationError } = await import('./errors.js');
      const cache = new FreshCache();
      expect(cache.size).toBe(0);
      expect(loads).toBe(0);
      const next = async () => Response.json({ ok: true }, { headers: { 'cache-control': 'max-age=60' } });
      const request = { method: 'GET', url: 'https://cache.test/a', headers: new Headers() };
      const failed = await cache.fetchThrough(request, next).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(ConfigurationError);
      expect((failed as Error).message).toContain('HttpCache could not load its engine module');
      failLoad = false;
      const response = await cache.fetchThrough(request, next);
      expect(await response.json()).toEqual({ ok: true });
      expect(cache.size).toBe(1);
      expect(loads).toBe(2);
    } finally {
      vi.doUnmock('./internal/fleet/http-cache-engine.js');
      vi.resetModules();
    }
  });
});

describe('HttpCache shared tier that cannot load', () => {
  it('caches in this process alone after one warning, with no unhandled rejection', async () => {
    vi.resetModules();
    vi.doMock('./internal/fleet/http-cache-redis.js', () => {
      throw new Error('chunk could not be fetched');
    });
    try {
      const { HttpCache: FreshCache } = await import('./http-cache.js');
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, warn: (line: string) => warnings.push(line), error() {} };
      const cache = new FreshCache({ shared: { redis: {} as never, logger, secret: 'a fleet secret of 24 ch' } });
      const next = vi.fn(async () => Response.json({ n: 1 }, { headers: { 'cache-control': 'max-age=60' } }));
      const request = { method: 'GET', url: 'https://cache.test/shared', headers: new Headers() };
      expect(await (await cache.fetchThrough(request, next)).json()).toEqual({ n: 1 });
      const again = await cache.fetchThrough(request, next);
      expect(again.headers.get('x-agent-apis-cache')).toBe('hit');
      expect(next).toHaveBeenCalledTimes(1);
      expect(cache.size).toBe(1);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('could not load its shared tier');
    } finally {
      vi.doUnmock('./internal/fleet/http-cache-redis.js');
      vi.resetModules();
    }
  });
});

describe('HttpCache.plan', () => {
  const request = (headers: HeadersInit = {}) => ({ method: 'GET', url: URL_, headers: new Headers(headers) });

  it('plans without a promise on an empty cache, and hands back an answer it cannot keep as it is', async () => {
    const cache = new HttpCache();
    await cache.load();
    const plan = cache.plan(request());
    expect(plan).not.toBeInstanceOf(Promise);
    const { hit, sent, complete } = plan as Exclude<typeof plan, Promise<unknown>>;
    expect(hit).toBeUndefined();
    const plain = Response.json({ n: 1 });
    const readable = vi.fn(() => plain.clone());
    expect(complete(plain, readable)).toBe(plain);
    expect(readable).not.toHaveBeenCalled();
    expect(sent.headers.has('if-none-match')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('keeps a cacheable answer from the readable copy, then plans a hit, then a revalidation once stale', async () => {
    const { cache, clock } = cacheWithClock();
    const first = await cache.plan(request());
    const spent = Response.json({ n: 1 }, { headers: { 'cache-control': 'max-age=60', etag: '"v1"' } });
    await spent.arrayBuffer();
    const readable = () => Response.json({ n: 1 }, { headers: { 'cache-control': 'max-age=60', etag: '"v1"' } });
    expect(await first.complete(spent, readable)).toBe(spent);
    expect(cache.size).toBe(1);

    const fresh = await cache.plan(request());
    expect(await fresh.hit?.json()).toEqual({ n: 1 });
    expect(fresh.hit?.headers.get(CACHE_STATUS_HEADER)).toBe('hit');

    clock.now = 61_000;
    const stale = await cache.plan(request());
    expect(stale.hit).toBeUndefined();
    expect(stale.sent.headers.get('if-none-match')).toBe('"v1"');
    const revalidated = await stale.complete(
      new Response(null, { status: 304, headers: { 'cache-control': 'max-age=60' } }),
    );
    expect(revalidated.headers.get(CACHE_STATUS_HEADER)).toBe('revalidated');
    expect(await revalidated.json()).toEqual({ n: 1 });
  });

  it('drops the stored GETs of a URL once a POST to it succeeds', async () => {
    const cache = new HttpCache();
    const kept = await cache.plan(request());
    await kept.complete(Response.json({ n: 1 }, { headers: { 'cache-control': 'max-age=60' } }));
    expect(cache.size).toBe(1);
    const post = await cache.plan({ method: 'POST', url: URL_, headers: new Headers() });
    expect(post.hit).toBeUndefined();
    await post.complete(Response.json({ ok: true }, { status: 201 }));
    expect(cache.size).toBe(0);
  });
});

describe('HttpCache with a body larger than it can keep', () => {
  /** The cache's byte limit in these tests, and the size of each chunk a body comes in. */
  const LIMIT = 64 * 1024;
  const CHUNK = 16 * 1024;

  /**
   * A cacheable answer streamed chunk by chunk, each chunk made only when pulled (no read-ahead), counting the bytes
   * pulled from it. After `total` bytes it closes, or with `stallAfter` it never ends: no more chunks, no close.
   */
  function streamedAnswer(total: number, { stallAfter = false } = {}) {
    const source = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (source.pulled >= total) {
            if (stallAfter) return new Promise<void>(() => undefined);
            controller.close();
            return;
          }
          source.pulled += CHUNK;
          controller.enqueue(new Uint8Array(CHUNK).fill(source.pulled / CHUNK));
        },
      },
      { highWaterMark: 0 },
    );
    const response = new Response(body, { headers: { 'cache-control': 'max-age=60', etag: '"big"' } });
    return { source, response };
  }

  async function byteLengthOf(response: Response): Promise<number> {
    return (await response.arrayBuffer()).byteLength;
  }

  it('stops reading its copy at its limit and hands the caller the whole body, storing nothing', async () => {
    const { source, response } = streamedAnswer(4 * LIMIT);
    const cache = new HttpCache({ maxBytes: LIMIT });
    const answer = await cache.wrap(async () => response)(URL_);
    // Before the caller reads a byte, the cache has pulled no more than its limit, the chunk that passed it, and the
    // one chunk a clone's branches read ahead.
    expect(source.pulled).toBeLessThanOrEqual(LIMIT + 2 * CHUNK);
    expect(cache.size).toBe(0);
    expect(answer.status).toBe(200);
    expect(await byteLengthOf(answer)).toBe(4 * LIMIT);
    expect(source.pulled).toBe(4 * LIMIT);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('refuses unread a body whose Content-Length is past its limit, and hands the caller all of it', async () => {
    const { source, response: streamed } = streamedAnswer(4 * LIMIT);
    const headers = new Headers(streamed.headers);
    headers.set('content-length', String(4 * LIMIT));
    const response = new Response(streamed.body, { headers });
    const cache = new HttpCache({ maxBytes: LIMIT });
    const answer = await cache.wrap(async () => response)(URL_);
    // At most the one chunk a clone's branches read ahead: the cache read none.
    expect(source.pulled).toBeLessThanOrEqual(CHUNK);
    expect(await byteLengthOf(answer)).toBe(4 * LIMIT);
    expect(cache.size).toBe(0);
  });

  it('hands the caller a body that never ends once it has passed the limit', async () => {
    const { source, response } = streamedAnswer(2 * LIMIT, { stallAfter: true });
    const cache = new HttpCache({ maxBytes: LIMIT });
    const answer = await cache.wrap(async () => response)(URL_);
    expect(source.pulled).toBeLessThanOrEqual(LIMIT + 2 * CHUNK);
    expect(cache.size).toBe(0);
    const reader = answer.body?.getReader();
    let read = 0;
    while (read < 2 * LIMIT) {
      const chunk = await reader?.read();
      expect(chunk?.done).toBe(false);
      read += chunk?.value?.byteLength ?? 0;
    }
    expect(read).toBe(2 * LIMIT);
    await reader?.cancel();
  });

  it('through the real fetch, returns while a local server is still sending a body that never ends', async () => {
    // The server sends 8 MiB (a bound for the test's sake) and then holds the connection open without ending it.
    const sendBytes = 8 * 1024 * 1024;
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'cache-control': 'max-age=60', 'content-type': 'application/octet-stream' });
      let sent = 0;
      const write = () => {
        while (sent < sendBytes) {
          sent += CHUNK;
          if (!response.write(new Uint8Array(CHUNK).fill(7))) return void response.once('drain', write);
        }
      };
      write();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const abort = new AbortController();
    try {
      const cache = new HttpCache({ maxBytes: LIMIT });
      const answer = await cache.wrap(fetch)(`http://127.0.0.1:${port}/endless`, { signal: abort.signal });
      expect(cache.size).toBe(0);
      const reader = answer.body?.getReader();
      let read = 0;
      while (read < 4 * LIMIT) {
        const chunk = await reader?.read();
        expect(chunk?.done).toBe(false);
        expect(chunk?.value?.[0]).toBe(7);
        read += chunk?.value?.byteLength ?? 0;
      }
      abort.abort();
      await reader?.cancel().catch(() => undefined);
      expect(cache.size).toBe(0);
    } finally {
      abort.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('keeps a body of exactly its limit streamed in chunks, byte for byte', async () => {
    const { response } = streamedAnswer(LIMIT);
    const cache = new HttpCache({ maxBytes: LIMIT });
    const send = cache.wrap(async () => response);
    expect(await byteLengthOf(await send(URL_))).toBe(LIMIT);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(LIMIT);
    const hit = await send(URL_);
    expect(hit.headers.get(CACHE_STATUS_HEADER)).toBe('hit');
    const bytes = new Uint8Array(await hit.arrayBuffer());
    expect(bytes.byteLength).toBe(LIMIT);
    expect([bytes[0], bytes[CHUNK], bytes[LIMIT - 1]]).toEqual([1, 2, LIMIT / CHUNK]);
  });

  it('keeps bytes of its own: a caller writing into the chunks it read does not change what is served', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('original'));
        controller.close();
      },
    });
    const cache = new HttpCache({ maxBytes: LIMIT });
    const send = cache.wrap(async () => new Response(body, { headers: { 'cache-control': 'max-age=60' } }));
    const chunk = await (await send(URL_)).body?.getReader().read();
    chunk?.value?.fill(0x78);
    expect(await (await send(URL_)).text()).toBe('original');
  });

  it('drops the stale entry an answer too large to keep replaces', async () => {
    const { cache, clock } = cacheWithClock(undefined, LIMIT);
    const server = scriptedFetch((_request, call) =>
      call === 1
        ? new Response('small', { headers: { 'cache-control': 'max-age=60', etag: '"small"' } })
        : streamedAnswer(4 * LIMIT).response,
    );
    const send = cache.wrap(server.fetch);
    await (await send(URL_)).text();
    expect(cache.size).toBe(1);
    clock.now = 61_000;
    expect(await byteLengthOf(await send(URL_))).toBe(4 * LIMIT);
    expect(server.received[1]?.headers.get('if-none-match')).toBe('"small"');
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it("through a client's transport, answers with the whole body and stores nothing", async () => {
    const server = scriptedFetch(() => streamedAnswer(4 * LIMIT).response);
    const cache = new HttpCache({ maxBytes: LIMIT });
    const transport = createTransport({ fetch: server.fetch, cache, maxResponseBytes: 8 * LIMIT });
    const first = await transport.send({ method: 'GET', url: URL_ });
    expect(await byteLengthOf(first)).toBe(4 * LIMIT);
    expect(cache.size).toBe(0);
    await transport.send({ method: 'GET', url: URL_ });
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it('through plan, reads the copy the transport gives once, and passes on an answer too large to keep', async () => {
    const cache = new HttpCache({ maxBytes: LIMIT });
    const plan = await cache.plan({ method: 'GET', url: URL_, headers: new Headers() });
    const bytes = new Uint8Array(4 * LIMIT);
    const headers = { 'cache-control': 'max-age=60' };
    const spent = new Response(bytes, { headers });
    await spent.arrayBuffer();
    const readable = vi.fn(() => new Response(bytes, { headers }));
    expect(await plan.complete(spent, readable)).toBe(spent);
    expect(readable).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(0);
  });
});
