/**
 * Every wait ends with the call: a rate limiter's queue at the call's timeout, holds of any length without a timer
 * loop, and a process whose last call timed out (no signal of the caller's) free to exit.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createFetch } from '@agent-apis/test-utils/operation-requests';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter, rateLimitHooks } from '../fleet/rate-limiter.js';
import { APIConnectionTimeoutError } from './answer-errors.js';
import { sleep } from './timers.js';
import { createTransport } from './transport.js';

describe('waits bounded by the call', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("ends a call waiting for the rate limiter at the call's timeout, typed, with nothing sent (finding: call({ timeout }) pending)", async () => {
    const limiter = new RateLimiter({ windows: [{ limit: 1, windowMs: 1_000 }] });
    limiter.penalize(3_600_000);
    const fetch = vi.fn(async () => Response.json({}));
    const send = createFetch(createTransport, { fetch, ...rateLimitHooks(limiter), maxRetries: 0, timeout: 200 });
    await expect(send('https://api.test/thing')).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(fetch).not.toHaveBeenCalled();
    // The waiter left the queue: nothing holds a grant for a call that is over.
    expect(limiter.pending).toBe(0);
  });

  it("ends a retry waiting for a limiter paused by a 429 at the call's deadline, not a fresh timeout later", async () => {
    vi.useFakeTimers();
    try {
      const limiter = new RateLimiter({ windows: [{ limit: 100, windowMs: 1_000 }] });
      // A 429 asking for 3 s: the call waits it out (inside its 5 s) and pauses the shared limiter as long.
      const fetch = vi.fn(async () => new Response(null, { status: 429, headers: { 'retry-after': '3' } }));
      let settledAt: number | undefined;
      const startedAt = Date.now();
      const call = createFetch(createTransport, { fetch, ...rateLimitHooks(limiter), timeout: 5_000 })(
        'https://api.test/thing',
      ).finally(() => {
        settledAt = Date.now() - startedAt;
      });
      call.catch(() => undefined);
      await vi.advanceTimersByTimeAsync(1_000);
      // Another caller's 429 holds the limiter for 30 s: the retry at 3 s waits in its queue.
      limiter.penalize(30_000);
      await vi.advanceTimersByTimeAsync(10_000);
      await expect(call).rejects.toBeInstanceOf(APIConnectionTimeoutError);
      expect(settledAt).toBe(5_000);
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(limiter.pending).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['Infinity', Number.POSITIVE_INFINITY],
    ['1e308', 1e308],
    ['30 days', 30 * 86_400_000],
  ])('holds of %s wait on a clamped timer, not a 1 ms timer loop (finding: holds past 2³¹ ms)', async (_, ms) => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    try {
      const limiter = new RateLimiter({ windows: [{ limit: 1, windowMs: 1_000 }] });
      limiter.penalize(ms);
      const stop = new AbortController();
      const waiting = limiter.acquire(stop.signal).catch((reason: unknown) => reason);
      const slept = sleep(ms, stop.signal).catch((reason: unknown) => reason);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      stop.abort(new Error('enough'));
      expect(await waiting).toMatchObject({ message: 'enough' });
      expect(await slept).toMatchObject({ message: 'enough' });
      // Two waits and the test's own timer, each set once: a loop of 1 ms timers would have set dozens.
      expect(timeouts.mock.calls.length).toBeLessThanOrEqual(4);
      for (const [, delay] of timeouts.mock.calls) expect(delay).toBeLessThanOrEqual(2 ** 31 - 1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a process whose last call timed out', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('exits on its own once the call failed, with no signal of the caller (finding: the lingering process)', async () => {
    // A server that takes the request and never answers: only the call's timeout ends the wait.
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const core = new URL('../../../dist/call.js', import.meta.url).href;
    const script = `
      const { createTransport } = await import(${JSON.stringify(core)});
      const transport = createTransport({ timeout: 200, maxRetries: 0 });
      try { await transport.send({ method: 'GET', url: 'http://127.0.0.1:${port}/never' }); }
      catch (error) { console.log(error.name); }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // Undici keeps an unanswered request (and the process) for 300 s unless the call lets it go: a process still
    // there after 20 s is the bug, however busy the machine.
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(killer);
    expect(output.trim()).toBe('APIConnectionTimeoutError');
    expect(signal).toBeNull();
    expect(code).toBe(0);
  }, 30_000);
});
