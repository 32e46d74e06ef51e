import { afterEach, describe, expect, it, vi } from 'vitest';
import * as entry from './index.js';
import { StoreTools } from './store.js';
import { STORE_MCP_ALIAS_ENV_VARS, storeCredentialEnvVars } from './store-env.js';

const REST = { loginKey: 'STORE_LOGIN', authToken: 'STORE_AUTH_TOKEN' };
const ALIAS = { loginKey: 'STORE_MCP_LOGIN_KEY', authToken: 'STORE_MCP_AUTH_TOKEN' };
const NAMES = [REST.loginKey, REST.authToken, ALIAS.loginKey, ALIAS.authToken];
/** What a variable can hold: unset, empty (an unset CI secret), whitespace only, or a value. */
const STATES = [undefined, '', '  ', 'value'] as const;

/** Every assignment of the four states to the four variables, each value distinct. */
function everyEnvironment(): Record<string, string | undefined>[] {
  const all: Record<string, string | undefined>[] = [];
  for (let code = 0; code < STATES.length ** NAMES.length; code++) {
    const env: Record<string, string | undefined> = {};
    NAMES.forEach((name, i) => {
      const state = STATES[Math.floor(code / STATES.length ** i) % STATES.length];
      if (state !== undefined) env[name] = state === 'value' ? `${name.toLowerCase()}-value-${code}` : state;
    });
    all.push(env);
  }
  return all;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('storeCredentialEnvVars', () => {
  it('is exported from the entry', () => {
    expect(entry.storeCredentialEnvVars).toBe(storeCredentialEnvVars);
  });

  it('picks the REST names when either holds something, else the earlier names, for every combination', () => {
    const environments = everyEnvironment();
    expect(environments).toHaveLength(256);
    for (const env of environments) {
      const restSet = Boolean(env.STORE_LOGIN?.trim() || env.STORE_AUTH_TOKEN?.trim());
      const names = storeCredentialEnvVars((name) => env[name]);
      expect(names, JSON.stringify(env)).toEqual(restSet ? REST : ALIAS);
    }
  });

  it('never mixes the pairs: half the REST pair still names the REST pair', () => {
    const aliases = { STORE_MCP_LOGIN_KEY: 'alias-login-1', STORE_MCP_AUTH_TOKEN: 'alias-token-1' };
    const onlyLogin: Record<string, string> = { STORE_LOGIN: 'rest-login-1', ...aliases };
    const onlyToken: Record<string, string> = { STORE_AUTH_TOKEN: 'rest-token-1', ...aliases };
    expect(storeCredentialEnvVars((name) => onlyLogin[name])).toEqual(REST);
    expect(storeCredentialEnvVars((name) => onlyToken[name])).toEqual(REST);
  });

  it('returns names only, the constants themselves', () => {
    const env: Record<string, string> = {
      STORE_MCP_LOGIN_KEY: 'secret-login-2',
      STORE_MCP_AUTH_TOKEN: 'secret-token-2',
    };
    const names = storeCredentialEnvVars((name) => env[name]);
    expect(names).toBe(STORE_MCP_ALIAS_ENV_VARS);
    expect(JSON.stringify(names)).not.toMatch(/secret/);
  });

  it('reads the process environment by default, as StoreTools does', () => {
    vi.stubEnv('STORE_LOGIN', '');
    vi.stubEnv('STORE_AUTH_TOKEN', '');
    vi.stubEnv('STORE_MCP_LOGIN_KEY', 'env-login-3');
    vi.stubEnv('STORE_MCP_AUTH_TOKEN', 'env-token-3');
    expect(storeCredentialEnvVars()).toEqual(ALIAS);
    vi.stubEnv('STORE_AUTH_TOKEN', 'rest-token-3');
    expect(storeCredentialEnvVars()).toEqual(REST);
    // StoreTools follows the same answer: the REST pair, of which STORE_LOGIN is missing.
    expect(() => new StoreTools()).toThrow(
      'StoreTools needs STORE_LOGIN too: the tool server takes STORE_LOGIN and STORE_AUTH_TOKEN',
    );
    vi.stubEnv('STORE_AUTH_TOKEN', ' \t');
    expect(storeCredentialEnvVars()).toEqual(ALIAS);
    expect(() => new StoreTools()).not.toThrow();
  });
});
