import { describe, expect, it } from 'vitest';
import { LiveBudget } from '../live/budget.ts';
import { nightsKept } from '../report/history.ts';
import { boundedNumber, envNumber, RANGES, rateLimitSetting } from './settings.ts';

describe('CONTRACT_* numbers are read within their range', () => {
  it('refuses out-of-range and non-decimal values with an error naming the variable, its range and the value', () => {
    expect(envNumber({}, 'CONTRACT_SAMPLE', RANGES.CONTRACT_SAMPLE, 10)).toBe(10);
    expect(envNumber({ CONTRACT_SAMPLE: ' 7 ' }, 'CONTRACT_SAMPLE', RANGES.CONTRACT_SAMPLE, 10)).toBe(7);
    expect(() => envNumber({ CONTRACT_SAMPLE: '1e6' }, 'CONTRACT_SAMPLE', RANGES.CONTRACT_SAMPLE, 10)).toThrow(
      'CONTRACT_SAMPLE must be a whole number from 1 to 100 records, got "1e6"',
    );
    for (const text of ['Infinity', 'NaN', '0x10', '-0.5', '']) {
      expect(() => boundedNumber('X', text, { min: 0, max: 5 }), text).toThrow(/^X must be a whole number from 0 to 5/);
    }
  });

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

  it('reads CONTRACT_HISTORY_NIGHTS within 2–1000 like every other number, refusing what the history used to guess', () => {
    expect(nightsKept({})).toBe(30);
    expect(nightsKept({ CONTRACT_HISTORY_NIGHTS: '7' })).toBe(7);
    for (const text of ['1', '1e3', '5000', 'thirty']) {
      expect(() => nightsKept({ CONTRACT_HISTORY_NIGHTS: text }), text).toThrow(
        `CONTRACT_HISTORY_NIGHTS must be a whole number from 2 to 1000 nights, got "${text}"`,
      );
    }
  });

  it('reads a rate limit as <n>/s,<m>/min within its ranges, refusing what it cannot read', () => {
    expect(rateLimitSetting('R', '20/s,800/min')).toEqual({ perSecond: 20, perMinute: 800 });
    expect(rateLimitSetting('R', '5/s')).toEqual({ perSecond: 5, perMinute: 800 });
    expect(() => rateLimitSetting('R', 'fast')).toThrow('R must read like 20/s,800/min, got "fast"');
    expect(() => rateLimitSetting('R', '1e9/s')).toThrow(/R \(per second\) must be a whole number from 1 to 1000/);
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
