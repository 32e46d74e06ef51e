import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from './env.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('readEnv', () => {
  it('returns the trimmed value of a set variable', () => {
    vi.stubEnv('AGENT_APIS_TEST_VALUE', '  https://api.test  ');
    expect(readEnv('AGENT_APIS_TEST_VALUE')).toBe('https://api.test');
  });

  it('treats unset, empty and blank variables alike: undefined', () => {
    vi.stubEnv('AGENT_APIS_TEST_VALUE', undefined);
    expect(readEnv('AGENT_APIS_TEST_VALUE')).toBeUndefined();
    vi.stubEnv('AGENT_APIS_TEST_VALUE', '');
    expect(readEnv('AGENT_APIS_TEST_VALUE')).toBeUndefined();
    vi.stubEnv('AGENT_APIS_TEST_VALUE', '   ');
    expect(readEnv('AGENT_APIS_TEST_VALUE')).toBeUndefined();
  });

  it('returns undefined where there is no process.env', () => {
    vi.stubEnv('AGENT_APIS_TEST_VALUE', 'set');
    vi.stubGlobal('process', { ...process, env: undefined });
    expect(readEnv('AGENT_APIS_TEST_VALUE')).toBeUndefined();
  });
});
