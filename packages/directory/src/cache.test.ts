import { fetchStub, jsonResponse, sentRequests } from '@agent-apis/test-utils/fetch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpCache } from './index.js';
import { testClient } from './test-support.js';

const stats = { personas: 1, skills: 2, bundles: 3, agents: 4, tools: 5, guides: 6 };

/** A stats endpoint that allows caching for a minute and tags its body `"v1"`; a matching If-None-Match gets a 304. */
function cacheableStats(cacheControl = 'public, max-age=60') {
  return fetchStub((request) =>
    request.headers.get('if-none-match') === '"v1"'
      ? new Response(null, { status: 304, headers: { etag: '"v1"', 'cache-control': cacheControl } })
      : jsonResponse(stats, { headers: { etag: '"v1"', 'cache-control': cacheControl } }),
  );
}

describe('client-side HTTP cache', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is on by default: a repeated GET within max-age is answered without a request', async () => {
    const fetch = cacheableStats();
    const client = testClient(fetch);

    await expect(client.stats()).resolves.toEqual(stats);
    vi.advanceTimersByTime(59_000);
    await expect(client.stats()).resolves.toEqual(stats);

    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('revalidates a stale entry with If-None-Match and serves the stored body on 304', async () => {
    const fetch = cacheableStats();
    const client = testClient(fetch);

    await client.stats();
    vi.advanceTimersByTime(61_000);
    await expect(client.stats()).resolves.toEqual(stats);

    const [first, second] = sentRequests(fetch);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(first?.headers.get('if-none-match')).toBeNull();
    expect(second?.headers.get('if-none-match')).toBe('"v1"');
  });

  it('keys entries by URL: different queries are fetched separately', async () => {
    const fetch = fetchStub((request) =>
      jsonResponse(
        { query: new URL(request.url).searchParams.get('q'), type: 'all', count: 0, results: [] },
        { headers: { 'cache-control': 'max-age=60' } },
      ),
    );
    const client = testClient(fetch);

    await expect(client.search({ q: 'git' })).resolves.toMatchObject({ query: 'git' });
    await expect(client.search({ q: 'pdf' })).resolves.toMatchObject({ query: 'pdf' });
    await expect(client.search({ q: 'git' })).resolves.toMatchObject({ query: 'git' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('with cache: false, fetches every time', async () => {
    const fetch = cacheableStats();
    const client = testClient(fetch, { cache: false });

    await client.stats();
    await client.stats();

    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sentRequests(fetch)[1]?.headers.get('if-none-match')).toBeNull();
  });

  it('never stores a no-store response', async () => {
    const fetch = cacheableStats('no-store');
    const client = testClient(fetch);

    await client.stats();
    await client.stats();

    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sentRequests(fetch)[1]?.headers.get('if-none-match')).toBeNull();
  });

  it('uses an HttpCache passed in, which clients can share', async () => {
    const fetch = cacheableStats();
    const shared = new HttpCache({ maxEntries: 10 });

    await testClient(fetch, { cache: shared }).stats();
    await testClient(fetch, { cache: shared }).stats();

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(shared.size).toBe(1);
  });
});
