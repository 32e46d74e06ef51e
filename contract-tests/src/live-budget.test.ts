import { afterEach, describe, expect, it } from 'vitest';
import { writeServices } from './live.ts';
import { LiveBudget, parseRateLimit } from './live-budget.ts';
import { type StandIn, serve } from './stand-ins/server.ts';

let server: StandIn | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('live budgets', () => {
  it('reads CONTRACT_STORE_RATE_LIMIT, defaulting to the store limits', () => {
    expect(parseRateLimit('20/s,800/min')).toEqual({ perSecond: 20, perMinute: 800 });
    expect(parseRateLimit('5/s')).toEqual({ perSecond: 5, perMinute: 800 });
  });

  it('allows writes per service only, refusing the old global switch', () => {
    expect([...writeServices({ CONTRACT_ALLOW_WRITES: 'store' })]).toEqual(['store']);
    expect([...writeServices({})]).toEqual([]);
    expect(() => writeServices({ CONTRACT_ALLOW_WRITES: '1' })).toThrow(/names services, one by one .* not 1$/);
  });

  it('refuses a mock-only header before anything is sent', async () => {
    server = await serve(() => ({ status: 200, body: {} }));
    const budget = new LiveBudget('directory', {});
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
    const budget = new LiveBudget('store', { CONTRACT_STORE_RATE_LIMIT: '100/s,6000/min' });
    const response = await budget.fetch(`${server.url}/v1/store/info.json`);
    expect(response.status).toBe(200);
    expect(budget.figures).toMatchObject({ requests: 2, tooManyRequests: 1, rateLimit: '100/s,6000/min' });
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
    const budget = new LiveBudget('trust', { CONTRACT_TRUST_BUDGET: '2' });
    await Promise.all([1, 2, 3].map(() => budget.fetch(`${server?.url}/v1/decide`, { method: 'POST', body: '{}' })));
    expect(overlapped).toBe(false);
    expect(budget.reserveScans(1)).toBe(true);
    expect(budget.reserveScans(2)).toBe(false);
    expect(budget.reserveScans(1)).toBe(true);
    expect(budget.figures).toMatchObject({ requests: 3, scans: 0, scanBudget: 2 });
  });

  it('refuses a trust budget that is not a whole number instead of lifting the limit', () => {
    for (const value of ['3/run', '-1', '1.5', 'NaN']) {
      expect(() => new LiveBudget('trust', { CONTRACT_TRUST_BUDGET: value }), value).toThrow(/CONTRACT_TRUST_BUDGET/);
    }
    expect(new LiveBudget('trust', { CONTRACT_TRUST_BUDGET: '0' }).reserveScans(1)).toBe(false);
  });
});
