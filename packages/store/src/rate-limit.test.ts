import { resetSharedRateLimiters } from '@agent-apis/core/call';
import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimitBanError, RateLimitError, StoreClient, type StoreClientOptions } from './index.js';
import { readStoreRateLimitHeaders } from './rate-limit.js';
import { BASE_URL, BASIC, BEARER } from './test-support.js';

/** A server that notes the (fake) time of every request it receives. */
function timedServer(respond: (index: number) => Response = () => jsonResponse({ store: {} })) {
  const times: number[] = [];
  const fetch = fetchStub((_request, index) => {
    times.push(Date.now());
    return respond(index);
  });
  return { fetch, times };
}

/** The most requests that fell within any window of `windowMs`. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  return Math.max(0, ...times.map((start) => times.filter((time) => time >= start && time < start + windowMs).length));
}

function storeClient(options: StoreClientOptions) {
  return new StoreClient({ baseUrl: BASE_URL, ...options });
}

function calls(client: StoreClient, count: number): Promise<unknown[]> {
  return Promise.all(Array.from({ length: count }, () => client.api.getStoreInfo()));
}

// A client loads its call path and limiter with `import()` at its first call, which takes real time: loaded once here,
// before the clocks are faked, so that advancing fake time does not race a module load.
beforeAll(async () => {
  await new StoreClient({
    baseUrl: BASE_URL,
    ...BEARER,
    fetch: fetchStub(() => jsonResponse({ store: {} })),
  }).api.getStoreInfo();
});

beforeEach(() => {
  vi.useFakeTimers();
  resetSharedRateLimiters();
});
afterEach(() => vi.useRealTimers());

describe('client-side rate limit', () => {
  it('spreads 45 calls over ≥ 2 s at 20 a second, never more than 20 in any second', async () => {
    const { fetch, times } = timedServer();
    const start = Date.now();
    const done = calls(storeClient({ ...BASIC, fetch }), 45);
    await vi.advanceTimersByTimeAsync(5_000);
    await done;
    expect(times).toHaveLength(45);
    expect(Math.max(...times) - start).toBeGreaterThanOrEqual(2_000);
    expect(busiestWindow(times, 1_000)).toBe(20);
  });

  it('takes its limits from the rateLimit option, and can be turned off', async () => {
    const slow = timedServer();
    const slowDone = calls(storeClient({ ...BASIC, fetch: slow.fetch, rateLimit: { perSecond: 5 } }), 10);
    await vi.advanceTimersByTimeAsync(5_000);
    await slowDone;
    expect(busiestWindow(slow.times, 1_000)).toBe(5);

    const unlimited = timedServer();
    const start = Date.now();
    await calls(storeClient({ ...BEARER, fetch: unlimited.fetch, rateLimit: false }), 45);
    expect(unlimited.times).toEqual(Array(45).fill(start));
  });

  it('shares one budget between clients with the same credentials', async () => {
    const { fetch, times } = timedServer();
    const start = Date.now();
    const done = Promise.all([
      calls(storeClient({ ...BASIC, fetch }), 15),
      calls(storeClient({ ...BASIC, fetch }), 15),
    ]);
    await vi.advanceTimersByTimeAsync(5_000);
    await done;
    expect(busiestWindow(times, 1_000)).toBe(20);
    expect(Math.max(...times) - start).toBeGreaterThanOrEqual(1_000);
  });

  it('gives clients with different credentials separate budgets', async () => {
    const { fetch, times } = timedServer();
    const start = Date.now();
    await Promise.all([
      calls(storeClient({ ...BASIC, fetch }), 15),
      calls(storeClient({ ...BASIC, authToken: 'other-store-token', fetch }), 15),
    ]);
    expect(times).toEqual(Array(30).fill(start));
  });

  type HeaderValues = Record<string, string>;
  it.each<{ window: string; exhausted: HeaderValues; roomy: HeaderValues; windowMs: number }>([
    {
      window: 'second',
      exhausted: { 'Jumpseller-PerSecondRateLimit-Limit': '20', 'Jumpseller-PerSecondRateLimit-Remaining': '0' },
      roomy: { 'Jumpseller-PerSecondRateLimit-Limit': '20', 'Jumpseller-PerSecondRateLimit-Remaining': '18' },
      windowMs: 1_000,
    },
    {
      window: 'minute, though the second has room',
      exhausted: { 'Jumpseller-PerSecondRateLimit-Remaining': '19', 'Jumpseller-PerMinuteRateLimit-Remaining': '0' },
      roomy: { 'Jumpseller-PerSecondRateLimit-Remaining': '19', 'Jumpseller-PerMinuteRateLimit-Remaining': '700' },
      windowMs: 60_000,
    },
  ])(
    'waits for the next $window when the store reports none remaining in it',
    async ({ exhausted, roomy, windowMs }) => {
      const { fetch } = timedServer((index) =>
        jsonResponse({ store: {} }, { status: 200, headers: index === 0 ? exhausted : roomy }),
      );
      const client = storeClient({ ...BASIC, fetch });
      await client.api.getStoreInfo();
      // The wait for the budget counts against the call's timeout: this one allows for the whole window.
      const second = client.api.getStoreInfo({ timeout: 2 * windowMs });
      await vi.advanceTimersByTimeAsync(windowMs - 1);
      expect(fetch).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await second;
      expect(fetch).toHaveBeenCalledTimes(2);
    },
  );

  it('keeps a configured limit when the store reports a higher one', async () => {
    const { fetch, times } = timedServer(() =>
      jsonResponse(
        { store: {} },
        {
          status: 200,
          headers: {
            'Jumpseller-PerSecondRateLimit-Limit': '20',
            'Jumpseller-PerSecondRateLimit-Remaining': '19',
          },
        },
      ),
    );
    const client = storeClient({ ...BASIC, fetch, rateLimit: { perSecond: 5 } });
    await client.api.getStoreInfo();
    const done = calls(client, 10);
    await vi.advanceTimersByTimeAsync(5_000);
    await done;
    expect(busiestWindow(times, 1_000)).toBe(5);
  });

  it('pauses every caller for the Retry-After of a 429', async () => {
    const { fetch } = timedServer((index) =>
      index === 0
        ? jsonResponse({ message: 'Rate limit exceeded' }, { status: 429, headers: { 'Retry-After': '3' } })
        : jsonResponse({ store: {} }),
    );
    const client = storeClient({ ...BASIC, fetch });
    const error = await client.api.getStoreInfo({ maxRetries: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 3_000 });
    const next = client.api.getStoreInfo();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await next;
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('readStoreRateLimitHeaders', () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it('reports every window the store sends, with its limit when given', () => {
    expect(
      readStoreRateLimitHeaders(
        headers({
          'Jumpseller-PerMinuteRateLimit-Limit': '800',
          'Jumpseller-PerMinuteRateLimit-Remaining': '799',
          'Jumpseller-PerSecondRateLimit-Remaining': '19',
        }),
      ),
    ).toEqual([
      { remaining: 19, windowMs: 1_000, limit: undefined },
      { remaining: 799, windowMs: 60_000, limit: 800 },
    ]);
  });

  it('reports nothing without rate-limit headers or with unreadable ones', () => {
    expect(readStoreRateLimitHeaders(headers({}))).toEqual([]);
    expect(readStoreRateLimitHeaders(headers({ 'Jumpseller-PerSecondRateLimit-Remaining': 'lots' }))).toEqual([]);
  });
});

describe('rate-limit ban', () => {
  it('stops at the first ban answer with RateLimitBanError and sends nothing more until the reset', async () => {
    vi.useRealTimers();
    const resetAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
    const { fetch, times } = timedServer(() =>
      jsonResponse(
        { message: 'banned' },
        { status: 429, headers: { 'Jumpseller-BannedByRateLimit-Reset': resetAt.toISOString() } },
      ),
    );
    const client = storeClient({ ...BEARER, accessToken: 'ban-test-token-1', fetch, rateLimit: false });
    const first = await client.api.getStoreInfo().catch((caught: unknown) => caught);
    expect(first).toBeInstanceOf(RateLimitBanError);
    expect((first as RateLimitBanError).resetAt.toISOString()).toBe(resetAt.toISOString());
    for (let call = 0; call < 4; call++) {
      await expect(client.api.getStoreInfo()).rejects.toBeInstanceOf(RateLimitBanError);
    }
    expect(times).toHaveLength(1);
  });
});

describe('many calls waiting on one client', () => {
  it('100 concurrent calls, with one shared signal or none, raise no MaxListenersExceededWarning', async () => {
    const { fetch } = timedServer();
    const client = storeClient({ ...BASIC, fetch });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const { signal } = new AbortController();
      const done = Promise.all([
        ...Array.from({ length: 100 }, () => client.api.getStoreInfo({ signal })),
        ...Array.from({ length: 100 }, () => client.api.getStoreInfo()),
      ]);
      await vi.advanceTimersByTimeAsync(15_000);
      await done;
      await new Promise((resolve) => process.nextTick(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(fetch).toHaveBeenCalledTimes(200);
    expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('aborting 10,000 queued calls settles them all at once and leaves nothing queued', async () => {
    const { fetch } = timedServer();
    const client = storeClient({ ...BASIC, fetch, maxRetries: 0 });
    const controller = new AbortController();
    const outcomes = Array.from({ length: 10_000 }, () =>
      client.api.getStoreInfo({ signal: controller.signal }).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      ),
    );
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    const settled = await Promise.all(outcomes);
    // The first second's 20 went out before the abort; every other call ends with the abort, without waiting.
    expect(settled.filter((outcome) => outcome === 'answered')).toHaveLength(20);
    expect(new Set(settled.filter((outcome) => outcome !== 'answered'))).toEqual(new Set(['APIUserAbortError']));
    expect(fetch).toHaveBeenCalledTimes(20);
  });
});
