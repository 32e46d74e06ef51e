import { createFetch } from '@agent-apis/test-utils/operation-requests';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTransport } from '../call/transport.js';
import {
  RateLimiter,
  rateLimitHooks,
  readRateLimitHeaders,
  resetSharedRateLimiters,
  sharedRateLimiter,
} from './rate-limiter.js';

const START = Date.parse('2030-01-01T00:00:00Z');

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});

afterEach(() => {
  vi.useRealTimers();
  resetSharedRateLimiters();
});

/** Starts `count` acquires at once and records when each is granted, relative to START. */
function acquireMany(limiter: RateLimiter, count: number) {
  const grantedAt: number[] = [];
  const done = Promise.all(
    Array.from({ length: count }, () => limiter.acquire().then(() => grantedAt.push(Date.now() - START))),
  );
  return { grantedAt, done };
}

/** Most grants that fall in any half-open interval of `windowMs`. */
function busiestWindow(grantedAt: readonly number[], windowMs: number): number {
  return Math.max(...grantedAt.map((start) => grantedAt.filter((t) => t >= start && t < start + windowMs).length));
}

describe('RateLimiter', () => {
  it('100 waiters on one signal put one listener on it, and an abort drops only the waiters still queued', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 20, windowMs: 1_000 }] });
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, 'addEventListener');
    const outcomes = Array.from({ length: 100 }, () =>
      limiter.acquire(controller.signal).then(
        () => 'granted',
        () => 'aborted',
      ),
    );
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    const settled = await Promise.all(outcomes);
    expect(added).toHaveBeenCalledTimes(1);
    expect(settled.filter((outcome) => outcome === 'granted')).toHaveLength(20);
    expect(settled.filter((outcome) => outcome === 'aborted')).toHaveLength(80);
  });

  it('spreads 45 acquires at 20 per second over 2 s of fake time, never 21 in one second', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 20, windowMs: 1_000 }] });
    const { grantedAt, done } = acquireMany(limiter, 45);
    await vi.advanceTimersByTimeAsync(0);
    expect(grantedAt).toHaveLength(20);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(grantedAt).toHaveLength(40);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(grantedAt).toHaveLength(45);
    expect(Math.max(...grantedAt)).toBeGreaterThanOrEqual(2_000);
    expect(busiestWindow(grantedAt, 1_000)).toBe(20);
  });

  it('respects every window: 20 per second and 800 per minute', async () => {
    const limiter = new RateLimiter({
      windows: [
        { limit: 20, windowMs: 1_000 },
        { limit: 800, windowMs: 60_000 },
      ],
    });
    const { grantedAt, done } = acquireMany(limiter, 830);
    await vi.advanceTimersByTimeAsync(61_000);
    await done;
    expect(grantedAt[799]).toBe(39_000);
    expect(grantedAt[800]).toBe(60_000);
    expect(busiestWindow(grantedAt, 1_000)).toBeLessThanOrEqual(20);
    expect(busiestWindow(grantedAt, 60_000)).toBeLessThanOrEqual(800);
  });

  it('serves concurrent callers in arrival order', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 1, windowMs: 100 }] });
    const order: number[] = [];
    const all = Promise.all([0, 1, 2, 3, 4].map((id) => limiter.acquire().then(() => order.push(id))));
    await vi.advanceTimersByTimeAsync(400);
    await all;
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('drops an aborted waiter and keeps serving the others', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 1, windowMs: 1_000 }] });
    await limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    const next = limiter.acquire().then(() => Date.now() - START);
    expect(limiter.pending).toBe(2);
    controller.abort(new Error('caller gave up'));
    await expect(aborted).rejects.toThrow('caller gave up');
    expect(limiter.pending).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await next).toBe(1_000);
  });

  it('settles 10,000 queued waiters aborted through 100 signals, leaving none pending', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 1, windowMs: 60_000 }] });
    await limiter.acquire();
    const controllers = Array.from({ length: 100 }, () => new AbortController());
    const waits = Array.from({ length: 10_000 }, (_, index) =>
      limiter.acquire((controllers[index % 100] as AbortController).signal).then(
        () => 'granted',
        () => 'aborted',
      ),
    );
    expect(limiter.pending).toBe(10_000);
    vi.useRealTimers();
    for (const controller of controllers) controller.abort(new Error('shutting down'));
    const outcomes = await Promise.all(waits);
    expect(new Set(outcomes)).toEqual(new Set(['aborted']));
    expect(limiter.pending).toBe(0);
    // How long this takes is a figure of the machine, not a verdict: each abort is constant work (the old queue
    // searched and spliced per abort), which `pnpm bench` measures, not this test.
  });

  it('keeps at most one abort listener on a signal shared by 100 waiting calls', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 10, windowMs: 1_000 }] });
    const controller = new AbortController();
    let listeners = 0;
    let mostListeners = 0;
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    vi.spyOn(signal, 'addEventListener').mockImplementation((...args) => {
      mostListeners = Math.max(mostListeners, ++listeners);
      add(...args);
    });
    vi.spyOn(signal, 'removeEventListener').mockImplementation((...args) => {
      listeners--;
      remove(...args);
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const done = Promise.all(Array.from({ length: 100 }, () => limiter.acquire(controller.signal)));
      await vi.advanceTimersByTimeAsync(10_000);
      await done;
      expect(mostListeners).toBe(1);
      expect(limiter.pending).toBe(0);
      await new Promise((resolve) => process.nextTick(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('rejects at once when the signal is already aborted', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 1, windowMs: 1_000 }] });
    await expect(limiter.acquire(AbortSignal.abort(new Error('too late')))).rejects.toThrow('too late');
  });

  it('holds every acquirer while penalized', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 100, windowMs: 1_000 }] });
    limiter.penalize(2_500);
    const { grantedAt, done } = acquireMany(limiter, 3);
    await vi.advanceTimersByTimeAsync(2_500);
    await done;
    expect(grantedAt).toEqual([2_500, 2_500, 2_500]);
  });

  it('adopts the remaining budget the server reports until its reset', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 100, windowMs: 10_000 }] });
    limiter.update({ remaining: 2, resetAt: START + 5_000 });
    const { grantedAt, done } = acquireMany(limiter, 4);
    await vi.advanceTimersByTimeAsync(5_000);
    await done;
    expect(grantedAt).toEqual([0, 0, 5_000, 5_000]);
  });

  it('adopts a lower limit the server reports for a window', async () => {
    const limiter = new RateLimiter({
      windows: [
        { limit: 20, windowMs: 1_000 },
        { limit: 800, windowMs: 60_000 },
      ],
    });
    limiter.update({ limit: 2, windowMs: 1_000 });
    const { grantedAt, done } = acquireMany(limiter, 5);
    await vi.advanceTimersByTimeAsync(2_000);
    await done;
    expect(grantedAt).toEqual([0, 0, 1_000, 1_000, 2_000]);
  });

  it('never raises a limit above the configured one', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 2, windowMs: 1_000 }] });
    limiter.update({ limit: 50, windowMs: 1_000 });
    const raised = acquireMany(limiter, 5);
    await vi.advanceTimersByTimeAsync(2_000);
    await raised.done;
    expect(raised.grantedAt).toEqual([0, 0, 1_000, 1_000, 2_000]);
  });

  it('refuses invalid windows', () => {
    expect(() => new RateLimiter({ windows: [] })).toThrow(TypeError);
    expect(() => new RateLimiter({ windows: [{ limit: 0, windowMs: 1_000 }] })).toThrow(TypeError);
  });
});

describe('sharedRateLimiter', () => {
  it('returns one limiter per key and builds it once', () => {
    const create = vi.fn(() => new RateLimiter({ windows: [{ limit: 1, windowMs: 1_000 }] }));
    const first = sharedRateLimiter('store:owner-a', create);
    expect(sharedRateLimiter('store:owner-a', create)).toBe(first);
    expect(sharedRateLimiter('store:owner-b', create)).not.toBe(first);
    expect(create).toHaveBeenCalledTimes(2);
  });
});

describe('readRateLimitHeaders', () => {
  it('reads x-ratelimit-* with a delta reset and ratelimit-* with a Unix reset', () => {
    const now = START;
    expect(
      readRateLimitHeaders(
        new Headers({ 'x-ratelimit-remaining': '3', 'x-ratelimit-limit': '20', 'x-ratelimit-reset': '2' }),
        now,
      ),
    ).toEqual({ remaining: 3, limit: 20, resetAt: now + 2_000 });
    const unixReset = String((now + 30_000) / 1000);
    expect(
      readRateLimitHeaders(new Headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': unixReset }), now),
    ).toEqual({ remaining: 0, limit: undefined, resetAt: now + 30_000 });
    expect(readRateLimitHeaders(new Headers({ 'x-ratelimit-limit': '20' }), now)).toBeUndefined();
  });
});

describe('rateLimitHooks', () => {
  const context = (signal: AbortSignal = new AbortController().signal) => ({
    attempt: 1,
    operation: 'listProducts',
    route: 'GET /v1/products.json',
    signal,
  });
  const request = new Request('https://store.example.test/v1/products.json');

  it('pauses the limiter for the Retry-After of a 429, but not at all for one above the 60 s cap', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 100, windowMs: 1_000 }] });
    const hooks = rateLimitHooks(limiter);
    await hooks.afterResponse(new Response(null, { status: 429, headers: { 'retry-after': '2' } }), request, context());
    const { grantedAt, done } = acquireMany(limiter, 1);
    await vi.advanceTimersByTimeAsync(2_000);
    await done;
    expect(grantedAt).toEqual([2_000]);

    await hooks.afterResponse(
      new Response(null, { status: 429, headers: { 'retry-after': '7200' } }),
      request,
      context(),
    );
    // The call fails fast instead (decideRetry); freezing every client on these credentials would not help.
    const later = acquireMany(limiter, 1);
    await vi.advanceTimersByTimeAsync(0);
    await later.done;
    expect(later.grantedAt).toEqual([2_000]);
  });

  it('follows the rate-limit headers of every response', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 100, windowMs: 60_000 }] });
    const hooks = rateLimitHooks(limiter);
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' };
    await hooks.afterResponse(new Response(null, { headers }), request, context());
    const { grantedAt, done } = acquireMany(limiter, 1);
    await vi.advanceTimersByTimeAsync(5_000);
    await done;
    expect(grantedAt).toEqual([5_000]);
  });

  it('applies every window update a reader returns', async () => {
    const limiter = new RateLimiter({
      windows: [
        { limit: 10, windowMs: 1_000 },
        { limit: 100, windowMs: 60_000 },
      ],
    });
    const hooks = rateLimitHooks(limiter, () => [
      { remaining: 0, windowMs: 1_000, resetAt: START + 1_000 },
      { remaining: 1, windowMs: 60_000, resetAt: START + 60_000 },
    ]);
    await hooks.afterResponse(new Response(null), request, context());
    const { grantedAt, done } = acquireMany(limiter, 2);
    await vi.advanceTimersByTimeAsync(60_000);
    await done;
    expect(grantedAt).toEqual([1_000, 60_000]);
  });

  it('paces createFetch: 25 concurrent GETs at 20 per second', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 20, windowMs: 1_000 }] });
    const upstream = vi.fn<typeof fetch>(async () => new Response('ok'));
    const send = createFetch(createTransport, { fetch: upstream, ...rateLimitHooks(limiter) });
    const calls = Promise.all(Array.from({ length: 25 }, () => send('https://store.example.test/v1/products.json')));
    await vi.advanceTimersByTimeAsync(0);
    expect(upstream).toHaveBeenCalledTimes(20);
    await vi.advanceTimersByTimeAsync(1_000);
    await calls;
    expect(upstream).toHaveBeenCalledTimes(25);
  });

  it('acquires with the caller signal, so an abort while queued ends the call', async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 1, windowMs: 1_000 }] });
    const hooks = rateLimitHooks(limiter);
    await hooks.beforeRequest(request, context());
    const controller = new AbortController();
    const queued = hooks.beforeRequest(request, context(controller.signal));
    controller.abort(new Error('stop'));
    await expect(queued).rejects.toThrow('stop');
  });
});
