import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, type Logger, parseLogLevel, resolveLogLevel } from './logger.js';
import { REDACTED } from './redact.js';

function recordingSink(): { sink: Logger; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const record =
    (level: string) =>
    (...args: unknown[]) => {
      calls.push([level, ...args]);
    };
  return {
    sink: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
    calls,
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('log level', () => {
  it('parses level names case-insensitively and rejects others', () => {
    expect(parseLogLevel(' DEBUG ')).toBe('debug');
    expect(parseLogLevel('verbose')).toBeUndefined();
    expect(parseLogLevel(undefined)).toBeUndefined();
  });

  it('is off by default, read from the environment variable, and overridden by an explicit level', () => {
    expect(resolveLogLevel()).toBe('off');
    vi.stubEnv('AGENT_APIS_LOG', 'warn');
    expect(resolveLogLevel({ envVar: 'AGENT_APIS_LOG' })).toBe('warn');
    expect(resolveLogLevel({ envVar: 'AGENT_APIS_LOG', level: 'debug' })).toBe('debug');
    vi.stubEnv('AGENT_APIS_LOG', 'loud');
    expect(resolveLogLevel({ envVar: 'AGENT_APIS_LOG' })).toBe('off');
  });
});

describe('createLogger', () => {
  it('forwards only lines at or above the level', () => {
    const { sink, calls } = recordingSink();
    const logger = createLogger({ sink, level: 'warn' });
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(calls).toEqual([
      ['warn', 'w'],
      ['error', 'e'],
    ]);
  });

  it('forwards nothing when off', () => {
    const { sink, calls } = recordingSink();
    const logger = createLogger({ sink });
    logger.error('e');
    expect(calls).toEqual([]);
  });

  it('takes its level from the environment variable', () => {
    vi.stubEnv('STORE_LOG', 'debug');
    const { sink, calls } = recordingSink();
    createLogger({ sink, envVar: 'STORE_LOG' }).debug('hello');
    expect(calls).toEqual([['debug', 'hello']]);
  });

  it('redacts messages and details', () => {
    const { sink, calls } = recordingSink();
    const logger = createLogger({ sink, level: 'debug', secrets: ['configured-secret'] });
    logger.info('GET https://x.test/a?authtoken=abc123xyz with configured-secret', {
      headers: new Headers({ authorization: 'Basic dXNlcjpwYXNz', accept: 'application/json' }),
      apiKey: 'raw-key-value',
      note: 'contains configured-secret',
    });
    expect(calls).toEqual([
      [
        'info',
        `GET https://x.test/a?authtoken=${REDACTED} with ${REDACTED}`,
        {
          headers: { accept: 'application/json', authorization: REDACTED },
          apiKey: REDACTED,
          note: `contains ${REDACTED}`,
        },
      ],
    ]);
  });
});
