import { describe, expect, it, vi } from 'vitest';
import { DecisionCache } from './decision-cache.js';
import {
  APIConnectionTimeoutError,
  ConfigurationError,
  type DecideContext,
  TrustClient,
  type TrustClientOptions,
} from './index.js';
import { CANARY_KEY, type DecisionFixture, decideFetch, decisionResult, T0 } from './test-support.js';

/** A client on a clock the test moves by hand. */
function clientOnClock(
  fixtureFor: () => DecisionFixture = () => ({}),
  options: TrustClientOptions = {},
): { client: TrustClient; fetch: ReturnType<typeof decideFetch>; advance: (ms: number) => void } {
  let now = T0;
  const fetch = decideFetch(() => ({ evaluatedAt: now, ...fixtureFor() }));
  const client = new TrustClient({ apiKey: CANARY_KEY, fetch, now: () => now, ...options });
  return { client, fetch, advance: (ms) => (now += ms) };
}

/** A `fetch` that answers decide requests only once `answer()` is called. */
function heldFetch(): { fetch: ReturnType<typeof vi.fn<typeof globalThis.fetch>>; answer: () => void } {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const fetch = vi.fn<typeof globalThis.fetch>(async () => {
    await answered;
    return Response.json(decisionResult({ evaluatedAt: Date.now() }));
  });
  return { fetch, answer };
}

describe('decision cache', () => {
  it('answers a repeated decide from the cache while the decision is valid', async () => {
    const { client, fetch, advance } = clientOnClock(() => ({ ttlSeconds: 3_600 }));
    const first = await client.decide('example.com');
    advance(3_599_000);
    const second = await client.decide('example.com');
    expect(second).toBe(first);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('asks again once valid_until has passed', async () => {
    const { client, fetch, advance } = clientOnClock(() => ({ ttlSeconds: 3_600 }));
    const first = await client.decide('example.com');
    advance(3_600_000);
    const second = await client.decide('example.com');
    expect(second).not.toBe(first);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('ends the window at ttl_seconds when that comes before valid_until', async () => {
    const validUntil = new Date(T0 + 86_400_000).toISOString();
    const { client, fetch, advance } = clientOnClock(() => ({ ttlSeconds: 60, validUntil }));
    await client.decide('example.com');
    advance(59_000);
    await client.decide('example.com');
    expect(fetch).toHaveBeenCalledTimes(1);
    advance(1_000);
    await client.decide('example.com');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not keep a decision that is already expired', async () => {
    const validUntil = new Date(T0 - 1_000).toISOString();
    const { client, fetch } = clientOnClock(() => ({ validUntil }));
    await client.decide('example.com');
    await client.decide('example.com');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it.each<[string, DecideContext]>([
    ['interaction kind', { interaction: { kind: 'download_file' } }],
    ['interaction mode', { interaction: { mode: 'transactional' } }],
    ['interaction sensitivity', { interaction: { sensitivity: 'high' } }],
    ['policy', { policy: { profile: 'strict' } }],
    ['evidence option', { options: { include_evidence: false } }],
  ])('keeps a separate entry per %s', async (_, context) => {
    const { client, fetch } = clientOnClock();
    await client.decide('example.com');
    await client.decide('example.com', context);
    await client.decide('example.com');
    await client.decide('example.com', context);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('shares an entry between spellings of the same request', async () => {
    const { client, fetch } = clientOnClock();
    await client.decide('example.com');
    await client.decide('Example.COM.');
    await client.decide({
      target: { type: 'domain', value: 'example.com' },
      interaction: { kind: 'fetch', mode: 'read_only', sensitivity: 'medium' },
      policy: { profile: 'balanced' },
      options: { include_evidence: true },
    });
    await client.decide('https://Example.com');
    await client.decide('https://example.com/');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('lets concurrent identical decides share one request', async () => {
    const { client, fetch } = clientOnClock();
    const decisions = await Promise.all([client.decide('example.com'), client.decide('example.com')]);
    expect(decisions[0]).toBe(decisions[1]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("ends a call that joins another's request in flight at its own timeout, leaving the first call alone", async () => {
    const { fetch, answer } = heldFetch();
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch });
    const first = client.decide('example.com', undefined, { timeout: 600_000 });
    // The server answers the first request only once the second call has ended.
    const second = await client.decide('example.com', undefined, { timeout: 20 }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(APIConnectionTimeoutError);
    expect(second).toMatchObject({ operation: 'decide', timeoutMs: 20 });
    expect(String(second)).not.toContain(CANARY_KEY);
    answer();
    await expect(first).resolves.toMatchObject({ action: 'proceed' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("bounds a joining call by the client's timeout when the call sets none", async () => {
    const { fetch, answer } = heldFetch();
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch, timeout: 20 });
    const first = client.decide('example.com', undefined, { timeout: 600_000 });
    const second = await client.decide('example.com').catch((e: unknown) => e);
    expect(second).toBeInstanceOf(APIConnectionTimeoutError);
    answer();
    await expect(first).resolves.toMatchObject({ action: 'proceed' });
  });

  it('lets a joining call with an infinite timeout wait for the answer (no timer that fires at once)', async () => {
    const { fetch, answer } = heldFetch();
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch });
    const first = client.decide('example.com');
    const second = client.decide('example.com', undefined, { timeout: Number.POSITIVE_INFINITY });
    // setTimeout takes Infinity as 1 ms: a third call joining later with 1 ms times out after such a timer would have.
    const third = client.decide('example.com', undefined, { timeout: 1 });
    await expect(third).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    answer();
    expect(await second).toBe(await first);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('does not keep failures', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(Response.json({ error: { code: 'internal_error', message: 'boom' } }, { status: 500 }))
      .mockImplementation(async () => Response.json(decisionResult({ evaluatedAt: Date.now() })));
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch });
    await expect(client.decide('example.com')).rejects.toThrow('boom');
    await expect(client.decide('example.com')).resolves.toMatchObject({ action: 'proceed' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('evicts the least recently used decision beyond maxEntries', async () => {
    const { client, fetch } = clientOnClock(undefined, { cache: { maxEntries: 2 } });
    await client.decide('a.example');
    await client.decide('b.example');
    await client.decide('a.example');
    await client.decide('c.example');
    expect(fetch).toHaveBeenCalledTimes(3);
    await client.decide('a.example');
    await client.decide('c.example');
    expect(fetch).toHaveBeenCalledTimes(3);
    await client.decide('b.example');
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('asks every time with cache: false', async () => {
    const { client, fetch } = clientOnClock(undefined, { cache: false });
    await Promise.all([client.decide('example.com'), client.decide('example.com')]);
    await client.decide('example.com');
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('decides once per domain for 1,000 guarded lookups over 20 domains inside one window', async () => {
    const { client, fetch } = clientOnClock(() => ({ ttlSeconds: 3_600 }));
    const target = vi.fn<typeof globalThis.fetch>(async () => new Response('ok'));
    const guarded = client.guardedFetch(target);
    const urls = Array.from({ length: 1_000 }, (_, i) => `https://site-${i % 20}.example/page/${i}`);

    await Promise.all(urls.slice(0, 500).map((url) => guarded(url)));
    for (const url of urls.slice(500)) await client.guard(url);

    expect(fetch).toHaveBeenCalledTimes(20);
    expect(target).toHaveBeenCalledTimes(500);
  });

  it.each([
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
    ["'10'", '10'],
  ])('refuses cache.maxEntries %s at construction with a ConfigurationError naming it', (_shown, maxEntries) => {
    const construct = () => new TrustClient({ apiKey: CANARY_KEY, cache: { maxEntries: maxEntries as number } });
    expect(construct).toThrow(ConfigurationError);
    expect(construct).toThrow(/^TrustClient cache\.maxEntries must be a whole number ≥ 1, got /);
  });

  it('refuses a size below one on the cache itself with a ConfigurationError', () => {
    expect(() => new DecisionCache({ maxEntries: 0 })).toThrow(ConfigurationError);
  });
});
