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

  it('returns undefined where reading the environment throws, as in Deno without --allow-env', () => {
    const refusing = new Proxy(
      {},
      {
        get(_target, name) {
          throw new Error(`NotCapable: Requires env access to "${String(name)}", run again with the --allow-env flag`);
        },
      },
    );
    vi.stubGlobal('process', { ...process, env: refusing });
    expect(readEnv('AGENT_APIS_LOG')).toBeUndefined();
  });
});
