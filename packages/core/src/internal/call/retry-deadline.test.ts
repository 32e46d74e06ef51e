/**
 * `timeout` is the whole call's deadline, retries included: a `Retry-After` (or a backoff) that would end past it is
 * not slept on, and the call fails at once with the answer's error carrying `retryAfter`. Proven on vitest's fake
 * clock (the transport's default sleep and the shared deadline run on `setTimeout`), never on wall time.
 */
import { scriptedFetch } from '@agent-apis/test-utils/fetch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionTimeoutError, InternalServerError, RateLimitError } from './answer-errors.js';
import { sleep } from './timers.js';
import { type CreateFetchOptions, createTransport } from './transport.js';

const URL_ = 'https://api.example.test/v1/items';

/** Answers 429 (or `status`) with `retry-after` on the first request, then 200. */
function busyOnce(retryAfter: string, status = 429) {
  return scriptedFetch((_request, call) =>
    call === 1 ? new Response('slow down', { status, headers: { 'retry-after': retryAfter } }) : new Response('ok'),
  );
}

/** A call through a transport on the default sleep (fake timers drive it), with no jitter. */
function send(options: CreateFetchOptions) {
  return createTransport({ random: () => 0, ...options }).send({ method: 'GET', url: URL_ });
}

/** Lets `promise` run without letting the fake clock move, then says whether and how it settled. */
async function settledNow<T>(promise: Promise<T>): Promise<{ settled: boolean; value?: T; error?: unknown }> {
  let outcome: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => {
      outcome = { settled: true, value };
    },
    (error: unknown) => {
      outcome = { settled: true, error };
    },
  );
  // Only microtasks and zero-delay timers run: the clock stays where it is.
  await vi.advanceTimersByTimeAsync(0);
  return outcome;
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2030-01-01T00:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Retry-After inside the call's deadline", () => {
  it('fails at once with the RateLimitError and retryAfter when Retry-After: 30 passes a 5 s timeout', async () => {
    const server = busyOnce('30');
    const waits = vi.fn(sleep);
    const started = Date.now();
    const outcome = await settledNow(send({ fetch: server.fetch, timeout: 5_000, sleep: waits }));
    expect(outcome.error).toBeInstanceOf(RateLimitError);
    expect((outcome.error as RateLimitError).retryAfter).toBe(30_000);
    expect((outcome.error as RateLimitError).retryAfterMs).toBe(30_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    // Not a millisecond of the fake clock passed and no wait began; what timers remain fire into nothing.
    expect(Date.now()).toBe(started);
    expect(waits).not.toHaveBeenCalled();
    await vi.runAllTimersAsync();
    expect(vi.getTimerCount()).toBe(0);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('fails at once on a 503 too, with its retryAfter', async () => {
    const server = busyOnce('30', 503);
    const outcome = await settledNow(send({ fetch: server.fetch, timeout: 5_000 }));
    expect(outcome.error).toBeInstanceOf(InternalServerError);
    expect((outcome.error as InternalServerError).retryAfter).toBe(30_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('waits out Retry-After: 1 within a long timeout and retries', async () => {
    const server = busyOnce('1');
    const call = send({ fetch: server.fetch, timeout: 60_000 });
    expect((await settledNow(call)).settled).toBe(false);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await (await call).text()).toBe('ok');
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it('reads an HTTP-date Retry-After against the deadline', async () => {
    const in30s = new Date(Date.now() + 30_000).toUTCString();
    const late = busyOnce(in30s);
    const outcome = await settledNow(send({ fetch: late.fetch, timeout: 5_000 }));
    expect((outcome.error as RateLimitError).retryAfter).toBe(30_000);
    expect(late.fetch).toHaveBeenCalledTimes(1);

    const in2s = busyOnce(new Date(Date.now() + 2_000).toUTCString());
    const call = send({ fetch: in2s.fetch, timeout: 5_000 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await call).status).toBe(200);
    expect(in2s.fetch).toHaveBeenCalledTimes(2);
  });

  it('surfaces a Retry-After above the maxRetryAfter cap at once, however long the timeout', async () => {
    const server = busyOnce('30');
    const outcome = await settledNow(
      send({ fetch: server.fetch, timeout: Number.POSITIVE_INFINITY, retryPolicy: { maxRetryAfterMs: 10_000 } }),
    );
    expect((outcome.error as RateLimitError).retryAfter).toBe(30_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it('gives the attempt after a wait only the time left, not a fresh timeout', async () => {
    // 503 with Retry-After: 3, then a request that never answers: the call ends 5 s after it began, not 3 + 5 s.
    const server = scriptedFetch((request, call) =>
      call === 1
        ? new Response(null, { status: 503, headers: { 'retry-after': '3' } })
        : new Promise<Response>((_resolve, reject) => {
            request.signal.addEventListener('abort', () => reject(request.signal.reason));
          }),
    );
    let settled = false;
    const call = send({ fetch: server.fetch, timeout: 5_000 }).finally(() => {
      settled = true;
    });
    call.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(server.fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).timeoutMs).toBe(5_000);
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });
});
