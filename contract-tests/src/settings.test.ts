import { describe, expect, it } from 'vitest';
import { boundedNumber, contractTarget, envNumber, RANGES, rateLimitSetting, strictMode } from './settings.ts';

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

  it('reads CONTRACT_TOOL_CALLS_PER_SECOND within 1–1000 instead of taking any number or none', () => {
    const read = (text: string) =>
      envNumber(
        { CONTRACT_TOOL_CALLS_PER_SECOND: text },
        'CONTRACT_TOOL_CALLS_PER_SECOND',
        RANGES.CONTRACT_TOOL_CALLS_PER_SECOND,
        10,
      );
    expect(read('100')).toBe(100);
    for (const text of ['0', '1e6', 'fast']) {
      expect(() => read(text), text).toThrow(
        `CONTRACT_TOOL_CALLS_PER_SECOND must be a whole number from 1 to 1000 tool calls a second, got "${text}"`,
      );
    }
  });

  it('reads the target and strict mode here, a value other than `live` or `1`/`true` meaning the default', () => {
    expect(contractTarget({ CONTRACT_TARGET: 'live' })).toBe('live');
    expect(contractTarget({ CONTRACT_TARGET: 'LIVE' })).toBe('mock');
    expect(contractTarget({})).toBe('mock');
    expect(strictMode({ CONTRACT_STRICT: ' True ' })).toBe(true);
    expect(strictMode({ CONTRACT_STRICT: '0' })).toBe(false);
  });

  it('reads a rate limit as <n>/s,<m>/min within its ranges, refusing what it cannot read', () => {
    expect(rateLimitSetting('R', '20/s,800/min')).toEqual({ perSecond: 20, perMinute: 800 });
    expect(rateLimitSetting('R', '5/s')).toEqual({ perSecond: 5, perMinute: 800 });
    expect(() => rateLimitSetting('R', 'fast')).toThrow('R must read like 20/s,800/min, got "fast"');
    expect(() => rateLimitSetting('R', '1e9/s')).toThrow(/R \(per second\) must be a whole number from 1 to 1000/);
  });
});
