import { describe, expect, it } from 'vitest';
import { backoffDelayMs, decideRetry, isIdempotentMethod, type RetryQuestion } from './retry.js';
import { retryAfterMs } from './retry-after.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

function ask(overrides: Partial<RetryQuestion> & Pick<RetryQuestion, 'trigger'>) {
  return decideRetry({ method: 'GET', retriesSoFar: 0, now: () => NOW, random: () => 0, ...overrides });
}

function status(code: number, headers: Record<string, string> = {}) {
  return { kind: 'response' as const, status: code, headers: new Headers(headers) };
}

describe('isIdempotentMethod', () => {
  it('accepts GET, HEAD, OPTIONS, PUT, DELETE and refuses POST and PATCH', () => {
    for (const method of ['GET', 'head', 'OPTIONS', 'PUT', 'delete']) expect(isIdempotentMethod(method)).toBe(true);
    for (const method of ['POST', 'patch']) expect(isIdempotentMethod(method)).toBe(false);
  });
});

describe('decideRetry', () => {
  it.each([408, 409, 429, 500, 502, 503, 504])('retries status %i', (code) => {
    expect(ask({ trigger: status(code) })).toEqual({ retry: true, delayMs: 500 });
  });

  it.each([400, 401, 403, 404, 422, 501])('does not retry status %i', (code) => {
    expect(ask({ trigger: status(code) }).retry).toBe(false);
  });

  it("retries connection failures of idempotent requests, never a timeout: it is the whole call's", () => {
    expect(ask({ trigger: { kind: 'connection' } }).retry).toBe(true);
    expect(ask({ method: 'PUT', trigger: { kind: 'timeout' } })).toEqual({
      retry: false,
      reason: "the call's timeout passed",
    });
  });

  it.each(['POST', 'PATCH'])('never retries %s, whatever happened', (method) => {
    expect(ask({ method, trigger: status(503) })).toEqual({ retry: false, reason: `${method} is not idempotent` });
    expect(ask({ method, trigger: { kind: 'connection' } }).retry).toBe(false);
    expect(ask({ method, trigger: status(503, { 'x-should-retry': 'true' }) }).retry).toBe(false);
  });

  it('stops after maxRetries', () => {
    expect(ask({ retriesSoFar: 2, trigger: status(503) }).retry).toBe(false);
    expect(ask({ retriesSoFar: 2, policy: { maxRetries: 3 }, trigger: status(503) }).retry).toBe(true);
    expect(ask({ policy: { maxRetries: 0 }, trigger: status(503) }).retry).toBe(false);
  });

  it('lets x-should-retry override the status rule', () => {
    expect(ask({ trigger: status(400, { 'x-should-retry': 'true' }) }).retry).toBe(true);
    expect(ask({ trigger: status(503, { 'x-should-retry': 'false' }) })).toEqual({
      retry: false,
      reason: 'server sent x-should-retry: false',
    });
  });

  it('waits the Retry-After delta seconds', () => {
    expect(ask({ trigger: status(429, { 'retry-after': '3' }) })).toEqual({ retry: true, delayMs: 3_000 });
  });

  it('waits until the Retry-After HTTP date', () => {
    const date = new Date(NOW + 5_000).toUTCString();
    expect(ask({ trigger: status(503, { 'retry-after': date }) })).toEqual({ retry: true, delayMs: 5_000 });
  });

  it('prefers retry-after-ms over Retry-After', () => {
    const headers = { 'retry-after-ms': '250', 'retry-after': '10' };
    expect(ask({ trigger: status(429, headers) })).toEqual({ retry: true, delayMs: 250 });
  });

  it('surfaces the failure instead of waiting longer than the cap', () => {
    expect(ask({ trigger: status(429, { 'retry-after': '61' }) }).retry).toBe(false);
    expect(ask({ trigger: status(429, { 'retry-after': '60' }) })).toEqual({ retry: true, delayMs: 60_000 });
    expect(ask({ policy: { maxRetryAfterMs: 1_000 }, trigger: status(429, { 'retry-after-ms': '1001' }) }).retry).toBe(
      false,
    );
  });

  it("surfaces the failure at once when the wait would end at or past the call's deadline", () => {
    const retryAfter30 = status(429, { 'retry-after': '30' });
    expect(ask({ remainingMs: 5_000, trigger: retryAfter30 })).toEqual({
      retry: false,
      reason: "a wait of 30000 ms would end past the call's deadline",
    });
    expect(ask({ remainingMs: 30_000, trigger: retryAfter30 }).retry).toBe(false);
    expect(ask({ remainingMs: 30_001, trigger: retryAfter30 })).toEqual({ retry: true, delayMs: 30_000 });
    const date = new Date(NOW + 8_000).toUTCString();
    expect(ask({ remainingMs: 5_000, trigger: status(503, { 'retry-after': date }) }).retry).toBe(false);
    // A backoff too: 500 ms with 400 ms left is not slept on.
    expect(ask({ remainingMs: 400, trigger: { kind: 'connection' } }).retry).toBe(false);
    expect(ask({ remainingMs: 501, trigger: { kind: 'connection' } })).toEqual({ retry: true, delayMs: 500 });
  });

  it('falls back to backoff when Retry-After cannot be read', () => {
    expect(ask({ trigger: status(503, { 'retry-after': 'soon' }) })).toEqual({ retry: true, delayMs: 500 });
  });
});

describe('backoffDelayMs', () => {
  it('doubles from 500 ms up to 8 s', () => {
    const noJitter = () => 0;
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelayMs(n, undefined, noJitter))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('removes up to a quarter at random', () => {
    expect(backoffDelayMs(0, undefined, () => 0.999)).toBe(375);
    expect(backoffDelayMs(2, undefined, () => 0.5)).toBe(1750);
  });
});

describe('retryAfterMs', () => {
  it('reads each form and rejects garbage', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120.5' }))).toBe(120.5);
    expect(retryAfterMs(new Headers({ 'retry-after': '0' }))).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(NOW - 9_000).toUTCString() }), NOW)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': '-5' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});
