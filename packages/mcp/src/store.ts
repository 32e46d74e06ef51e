import { AgentApiError, MissingCredentialsError } from '@agent-apis/core';
import { readEnv } from '@agent-apis/core/service';
import { StoreToolMethods } from './gen/store.gen.js';
import { STORE_MCP_ALIAS_ENV_VARS, STORE_MCP_ENV_VARS, storeCredentialEnvVars } from './store-env.js';
import type { ToolClientOptions } from './tool-client.js';

/** The platform's tool server. */
export const STORE_MCP_DEFAULT_URL = 'https://mcp.jumpseller.com';

export interface StoreToolsOptions extends ToolClientOptions {
  /** The store's login key, sent as `X-LOGIN-KEY` (env `STORE_LOGIN`). */
  loginKey?: string | undefined;
  /** The store's auth token, sent as `X-AUTH-TOKEN` (env `STORE_AUTH_TOKEN`). */
  authToken?: string | undefined;
  /** The tool server's endpoint (env `STORE_MCP_URL`, else `https://mcp.jumpseller.com`). */
  url?: string | undefined;
}

/**
 * The pair of credentials: both from the options when either is given there, else both from the environment (the
 * REST names when either is set, else the earlier MCP names). None at all is a `MissingCredentialsError`; half a
 * pair, or a value holding a line break, an `AgentApiError` naming the option or variable. Messages never contain
 * a value. Which pair of variables applies is {@link storeCredentialEnvVars}'s rule.
 */
function credentialsOf(options: StoreToolsOptions): { loginKey: string; authToken: string } {
  const fromOptions = options.loginKey !== undefined || options.authToken !== undefined;
  const env = storeCredentialEnvVars(readEnv);
  const names = fromOptions ? { loginKey: 'loginKey', authToken: 'authToken' } : env;
  const loginKey = fromOptions ? options.loginKey : readEnv(env.loginKey);
  const authToken = fromOptions ? options.authToken : readEnv(env.authToken);
  if (!loginKey && !authToken) {
    throw new MissingCredentialsError({
      client: 'StoreTools',
      options: [['loginKey', 'authToken']],
      envVars: [
        [STORE_MCP_ENV_VARS.loginKey, STORE_MCP_ENV_VARS.authToken],
        [STORE_MCP_ALIAS_ENV_VARS.loginKey, STORE_MCP_ALIAS_ENV_VARS.authToken],
      ],
    });
  }
  if (!loginKey || !authToken) {
    throw new AgentApiError(
      `StoreTools needs ${loginKey ? names.authToken : names.loginKey} too: the tool server takes ` +
        `${names.loginKey} and ${names.authToken} (sent as X-LOGIN-KEY and X-AUTH-TOKEN)`,
    );
  }
  for (const [name, value] of [
    [names.loginKey, loginKey],
    [names.authToken, authToken],
  ]) {
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new AgentApiError(`StoreTools ${name} contains a line break or NUL character, which no header can carry`);
    }
  }
  return { loginKey, authToken };
}

/**
 * The store's agent tool server: one typed method per tool (`listProducts`, `getOrder`, `createPage`, …). Sends
 * `X-LOGIN-KEY` and `X-AUTH-TOKEN` with every request; connects on the first call; `close()` ends the session.
 */
export class StoreTools extends StoreToolMethods {
  constructor(options: StoreToolsOptions = {}) {
    const { loginKey, authToken } = credentialsOf(options);
    super({
      url: options.url ?? readEnv(STORE_MCP_ENV_VARS.url) ?? STORE_MCP_DEFAULT_URL,
      headers: { 'X-LOGIN-KEY': loginKey, 'X-AUTH-TOKEN': authToken },
      fetch: options.fetch,
      timeout: options.timeout,
      validateResponses: options.validateResponses,
      maxResponseBytes: options.maxResponseBytes,
    });
  }
}
