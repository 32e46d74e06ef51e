import { type StandIn, serve } from '@agent-apis/test-servers/stand-ins/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeServices } from '../settings.ts';
import { type Dispatch, LiveBudget, NotSentError } from './budget.ts';
import type { BudgetProfile } from './profile.ts';

/** Budgets shaped like the contract files' profiles: a rate-limited service and a serial, metered one. */
const RATE_LIMITED: BudgetProfile = { rateLimit: { env: 'CONTRACT_STORE_RATE_LIMIT', default: '20/s,800/min' } };
const METERED: BudgetProfile = {
  serial: true,
  quota: { env: 'CONTRACT_TRUST_BUDGET', unit: 'scan', cost: () => 1 },
};

let server: StandIn | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('live budgets', () => {
  it('reads CONTRACT_STORE_RATE_LIMIT, defaulting to the store limits', () => {
    expect(new LiveBudget(RATE_LIMITED, {}).figures.rateLimit).toBe('20/s,800/min');
    expect(new LiveBudget(RATE_LIMITED, { CONTRACT_STORE_RATE_LIMIT: '5/s' }).figures.rateLimit).toBe('5/s');
    expect(() => new LiveBudget(RATE_LIMITED, { CONTRACT_STORE_RATE_LIMIT: '5/hour' })).toThrow(
      'CONTRACT_STORE_RATE_LIMIT must read like 20/s,800/min, got "5/hour"',
    );
  });

  it('allows writes per service only, refusing the old global switch', () => {
    expect([...writeServices({ CONTRACT_ALLOW_WRITES: 'store' })]).toEqual(['store']);
    expect([...writeServices({})]).toEqual([]);
    expect(() => writeServices({ CONTRACT_ALLOW_WRITES: '1' })).toThrow(/names services, one by one .* not 1$/);
  });

  it('refuses a mock-only header before anything is sent', async () => {
    server = await serve(() => ({ status: 200, body: {} }));
    const budget = new LiveBudget({}, {});
    await expect(budget.fetch(server.url, { headers: { Prefer: 'dynamic=true' } })).rejects.toThrow(
      /mock-only header prefer/,
    );
    expect(server.requests).toEqual([]);
    expect(budget.figures.requests).toBe(0);
  });

  it('waits out a 429 (Retry-After) and counts it; the caller sees the answer that followed', async () => {
    let calls = 0;
    server = await serve(() =>
      ++calls === 1 ? { status: 429, body: {}, headers: { 'retry-after': '0' } } : { status: 200, body: { ok: true } },
    );
    const budget = new LiveBudget(RATE_LIMITED, { CONTRACT_STORE_RATE_LIMIT: '100/s,6000/min' });
    const response = await budget.fetch(`${server.url}/v1/store/info.json`);
    expect(response.status).toBe(200);
    expect(budget.figures).toMatchObject({ requests: 2, tooManyRequests: 1, rateLimit: '100/s,6000/min' });
  });

  it('waits out a Retry-After longer than the old 5 s cap (as the server asks, up to CONTRACT_MAX_RETRY_AFTER)', async () => {
    let calls = 0;
    const arrivals: number[] = [];
    server = await serve(() => {
      arrivals.push(Date.now());
      return ++calls === 1
        ? { status: 429, body: {}, headers: { 'retry-after': '6' } }
        : { status: 200, body: { ok: true } };
    });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const budget = new LiveBudget(RATE_LIMITED, { CONTRACT_STORE_RATE_LIMIT: '100/s,6000/min' });
      const pending = budget.fetch(`${server.url}/v1/store/info.json`);
      await vi.waitFor(() => expect(calls).toBe(1));
      // Not sent again before the 6 s the server asked for (the old code gave up waiting at 5 s).
      await vi.advanceTimersByTimeAsync(5_500);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(600);
      const response = await pending;
      expect(response.status).toBe(200);
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands a 429 whose Retry-After exceeds CONTRACT_MAX_RETRY_AFTER to the check instead of waiting', async () => {
    server = await serve(() => ({ status: 429, body: {}, headers: { 'retry-after': '3600' } }));
    const budget = new LiveBudget(RATE_LIMITED, { CONTRACT_STORE_RATE_LIMIT: '100/s,6000/min' });
    const response = await budget.fetch(`${server.url}/v1/store/info.json`);
    expect(response.status).toBe(429);
    expect(budget.figures).toMatchObject({ requests: 1, tooManyRequests: 1, notWaited: 1 });
    expect(() => new LiveBudget({}, { CONTRACT_MAX_RETRY_AFTER: 'soon' })).toThrow(/CONTRACT_MAX_RETRY_AFTER/);
  });

  it('sends nothing more once a 429 outlasted the run: later requests are not sent, with the reason', async () => {
    server = await serve(() => ({ status: 429, body: {}, headers: { 'retry-after': '3600' } }));
    const budget = new LiveBudget(RATE_LIMITED, { CONTRACT_STORE_RATE_LIMIT: '100/s,6000/min' });
    await budget.fetch(`${server.url}/v1/products.json`);
    const dispatch: Dispatch = {};
    await expect(budget.send(`${server.url}/v1/orders.json`, undefined, dispatch)).rejects.toThrow(NotSentError);
    expect(budget.stopped).toMatch(/429 asking to wait 3600 s, past CONTRACT_MAX_RETRY_AFTER=120 s/);
    expect(dispatch.sent).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it('ends a request that hangs at CONTRACT_TIMEOUT, marked hung; the call queued behind it is sent after', async () => {
    let calls = 0;
    server = await serve(async () => {
      calls++;
      // The first request never gets an answer.
      if (calls === 1) await new Promise(() => {});
      return { status: 200, body: { ok: true } };
    });
    const budget = new LiveBudget(METERED, { CONTRACT_TIMEOUT: '2' });
    const hung: Dispatch = {};
    const next: Dispatch = {};
    const first = budget.send(`${server.url}/v1/decide`, { method: 'POST', body: '{}' }, hung);
    const second = budget.send(`${server.url}/v1/decide`, { method: 'POST', body: '{}' }, next);
    await expect(first).rejects.toThrow();
    expect(hung).toMatchObject({ sent: true, timedOut: true });
    const answer = await second;
    expect(answer.status).toBe(200);
    expect(next.sent).toBe(true);
    expect(next.timedOut).toBeUndefined();
  });

  it('sends trust calls one at a time and keeps the scan budget', async () => {
    let inFlight = 0;
    let overlapped = false;
    server = await serve(async () => {
      inFlight++;
      overlapped ||= inFlight > 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return { status: 200, body: {} };
    });
    const budget = new LiveBudget(METERED, { CONTRACT_TRUST_BUDGET: '2' });
    await Promise.all([1, 2, 3].map(() => budget.fetch(`${server?.url}/v1/decide`, { method: 'POST', body: '{}' })));
    expect(overlapped).toBe(false);
    expect(budget.reserveScans(1)).toBe(true);
    expect(budget.reserveScans(2)).toBe(false);
    expect(budget.reserveScans(1)).toBe(true);
    expect(budget.figures).toMatchObject({ requests: 3, scans: 0, scanBudget: 2 });
  });

  it('refuses a trust budget that is not a whole number instead of lifting the limit', () => {
    for (const value of ['3/run', '-1', '1.5', 'NaN']) {
      expect(() => new LiveBudget(METERED, { CONTRACT_TRUST_BUDGET: value }), value).toThrow(/CONTRACT_TRUST_BUDGET/);
    }
    expect(new LiveBudget(METERED, { CONTRACT_TRUST_BUDGET: '0' }).reserveScans(1)).toBe(false);
  });
});

describe('the budget reads its CONTRACT_* numbers through settings.ts', () => {
  it('refuses CONTRACT_MAX_RETRY_AFTER=3000000, CONTRACT_TIMEOUT=0 and a trust budget above a month of scans', () => {
    expect(() => new LiveBudget({}, { CONTRACT_MAX_RETRY_AFTER: '3000000' })).toThrow(
      'CONTRACT_MAX_RETRY_AFTER must be a whole number from 0 to 600 seconds, got "3000000"',
    );
    expect(() => new LiveBudget({}, { CONTRACT_TIMEOUT: '0' })).toThrow(/CONTRACT_TIMEOUT must be .* 1 to 600 seconds/);
    const metered = { quota: { env: 'CONTRACT_TRUST_BUDGET' as const, unit: 'trust scan', cost: () => 1 } };
    expect(() => new LiveBudget(metered, { CONTRACT_TRUST_BUDGET: '151' })).toThrow(
      'CONTRACT_TRUST_BUDGET must be a whole number from 0 to 150 trust scans, got "151"',
    );
    expect(new LiveBudget(metered, { CONTRACT_TRUST_BUDGET: '20' }).figures.scanBudget).toBe(20);
  });

  it('refuses a CONTRACT_STORE_RATE_LIMIT it cannot read', () => {
    expect(
      () =>
        new LiveBudget(
          { rateLimit: { env: 'CONTRACT_STORE_RATE_LIMIT', default: '20/s' } },
          {
            CONTRACT_STORE_RATE_LIMIT: '0/s',
          },
        ),
    ).toThrow(/CONTRACT_STORE_RATE_LIMIT \(per second\)/);
  });
});
