/**
 * One rule for which environment variables hold the store tool server's credentials, in the three places that read
 * them: `StoreTools` of @agent-apis/mcp (a user's client), the contract suite's live tool-server target (what the
 * nightly checks with), and @agent-apis/specs (the live tools/list sync, which repeats the rule because it cannot
 * import @agent-apis/mcp). Every combination of the four variables, each unset, empty, blank or holding its own
 * value, must give the same pair and the same credentials in all three.
 */
import { AgentApiError, STORE_MCP_ALIAS_ENV_VARS, StoreTools, storeCredentialEnvVars } from '@agent-apis/mcp';
import {
  credentialEnvVars,
  mcpToolsPaths,
  missingServerAccess,
  readToolsLock,
  toolServerAccess,
} from '@agent-apis/specs/mcp-tools';
import { fakeToolServer, textResult } from '@agent-apis/test-utils/mcp-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveToolServerTargets } from './targets.ts';

const VARIABLES = ['STORE_LOGIN', 'STORE_AUTH_TOKEN', 'STORE_MCP_LOGIN_KEY', 'STORE_MCP_AUTH_TOKEN'] as const;
/** What a variable can hold: unset, empty (an unset CI secret), whitespace only, or a value of its own. */
const STATES = ['unset', 'empty', 'blank', 'value'] as const;

/** Every assignment of the four states to the four variables; each value differs from every other one. */
function everyEnvironment(): Record<string, string>[] {
  const all: Record<string, string>[] = [];
  for (let code = 0; code < STATES.length ** VARIABLES.length; code++) {
    const env: Record<string, string> = {};
    VARIABLES.forEach((name, i) => {
      const state = STATES[Math.floor(code / STATES.length ** i) % STATES.length];
      if (state === 'empty') env[name] = '';
      if (state === 'blank') env[name] = ' \t';
      if (state === 'value') env[name] = ` ${name.toLowerCase().replaceAll('_', '-')}-${code} `;
    });
    all.push(env);
  }
  return all;
}

/** The variables set in `env`, for naming a failing combination without printing a value. */
const shape = (env: Record<string, string>) =>
  VARIABLES.map((name) => `${name}=${env[name] === undefined ? 'unset' : env[name].trim() ? 'value' : 'blank'}`).join(
    ' ',
  );

const storeLock = await readToolsLock(mcpToolsPaths('store').lock);
const environments = everyEnvironment();

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the store tool server credentials: one rule for the client, the contract suite and specs', () => {
  it('covers every combination of the four variables', () => {
    expect(environments).toHaveLength(256);
    // Both pairs complete with different values: the combination the earlier precedence got wrong.
    expect(environments.filter((env) => VARIABLES.every((name) => env[name]?.trim()))).toHaveLength(1);
  });

  it("specs reads the same pair as @agent-apis/mcp's storeCredentialEnvVars, and sends its values", () => {
    for (const env of environments) {
      const names = storeCredentialEnvVars((name) => env[name]);
      const specsNames = credentialEnvVars('store', env);
      expect({ loginKey: specsNames['X-LOGIN-KEY'], authToken: specsNames['X-AUTH-TOKEN'] }, shape(env)).toEqual(names);
      const loginKey = env[names.loginKey]?.trim();
      const authToken = env[names.authToken]?.trim();
      const withUrl = { ...env, STORE_MCP_URL: 'http://127.0.0.1:9/mcp' };
      if (loginKey && authToken) {
        expect(missingServerAccess(storeLock, withUrl), shape(env)).toEqual([]);
        expect(toolServerAccess(storeLock, withUrl).headers, shape(env)).toEqual({
          'X-LOGIN-KEY': loginKey,
          'X-AUTH-TOKEN': authToken,
        });
      } else {
        expect(missingServerAccess(storeLock, withUrl).length, shape(env)).toBeGreaterThan(0);
        expect(() => toolServerAccess(storeLock, withUrl), shape(env)).toThrow(/Set STORE_/);
      }
    }
  });

  it("the live tool-server target uses the credentials a user's StoreTools sends, or is skipped when it refuses", async () => {
    for (const env of environments) {
      for (const name of VARIABLES) vi.stubEnv(name, env[name]);
      const target = liveToolServerTargets(env).store;
      const server = fakeToolServer({ tools: [], handle: () => textResult('unused') });
      let built: StoreTools | undefined;
      let refusal: unknown;
      try {
        built = new StoreTools({ fetch: server.fetch, url: 'http://127.0.0.1:9/mcp' });
      } catch (error) {
        refusal = error;
      }
      if (!built) {
        expect(refusal, shape(env)).toBeInstanceOf(AgentApiError);
        expect(target.skipReason ?? 'not skipped', shape(env)).toMatch(/^no credentials \(/);
        expect(target.credentials).toEqual({});
        for (const value of Object.values(env).filter((v) => v.trim())) {
          expect((refusal as Error).message).not.toContain(value.trim());
          expect(target.skipReason).not.toContain(value.trim());
        }
        continue;
      }
      await built.listTools();
      await built.close();
      const sent = server.requests.find((request) => request.method === 'POST')?.headers;
      expect(target.skipReason, shape(env)).toBeUndefined();
      expect(target.credentials, shape(env)).toEqual({
        loginKey: sent?.get('x-login-key'),
        authToken: sent?.get('x-auth-token'),
      });
    }
  });

  it('with both pairs set, the REST pair is used everywhere; half of it is not completed from the other pair', () => {
    const aliases = { STORE_MCP_LOGIN_KEY: 'alias-login-1', STORE_MCP_AUTH_TOKEN: 'alias-token-1' };
    const both = { STORE_LOGIN: 'rest-login-1', STORE_AUTH_TOKEN: 'rest-token-1', ...aliases };
    expect(liveToolServerTargets(both).store.credentials).toEqual({
      loginKey: 'rest-login-1',
      authToken: 'rest-token-1',
    });
    const half = liveToolServerTargets({ STORE_LOGIN: 'rest-login-2', ...aliases }).store;
    expect(half.credentials).toEqual({});
    expect(half.skipReason).toBe('no credentials (STORE_LOGIN is set without STORE_AUTH_TOKEN)');
    expect(liveToolServerTargets(aliases).store.credentials).toEqual({
      loginKey: 'alias-login-1',
      authToken: 'alias-token-1',
    });
    expect(liveToolServerTargets({}).store.skipReason).toBe(
      `no credentials (STORE_LOGIN + STORE_AUTH_TOKEN, or ${STORE_MCP_ALIAS_ENV_VARS.loginKey} + ${STORE_MCP_ALIAS_ENV_VARS.authToken})`,
    );
  });

  it("sends the store's credentials to the vendor's tool server only when the store is on the vendor's host", () => {
    const pair = { STORE_LOGIN: 'elsewhere-login-1', STORE_AUTH_TOKEN: 'elsewhere-token-1' };
    expect(liveToolServerTargets(pair).store.url).toBe('https://mcp.jumpseller.com');
    expect(liveToolServerTargets({ ...pair, STORE_BASE_URL: 'https://api.jumpseller.com/v1' }).store.url).toBe(
      'https://mcp.jumpseller.com',
    );
    const elsewhere = liveToolServerTargets({ ...pair, STORE_BASE_URL: 'https://u:pw-9@sandbox.shop.test/v1' }).store;
    expect(elsewhere.url).toBeUndefined();
    expect(elsewhere.credentials).toEqual({});
    expect(elsewhere.skipReason).toMatch(/^not configured: STORE_BASE_URL is not the vendor's host.*set STORE_MCP_URL/);
    expect(elsewhere.skipReason).not.toContain('pw-9');
    // A host that only looks like the vendor's is elsewhere too.
    const lookalike = { ...pair, STORE_BASE_URL: 'https://api.jumpseller.com.evil.test/v1' };
    expect(liveToolServerTargets(lookalike).store.skipReason).toMatch(/^not configured/);
    const pointed = { ...lookalike, STORE_MCP_URL: 'https://tools.shop.test/mcp' };
    expect(liveToolServerTargets(pointed).store).toMatchObject({
      url: 'https://tools.shop.test/mcp',
      credentials: { loginKey: 'elsewhere-login-1', authToken: 'elsewhere-token-1' },
    });
  });
});
