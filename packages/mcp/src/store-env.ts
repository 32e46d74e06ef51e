import { readEnv } from '@agent-apis/core/service';

/**
 * Environment variables {@link StoreTools} reads when its options leave something out. The credentials are the
 * store API's token pair, under the same names the REST client (`StoreClient`) reads.
 */
export const STORE_MCP_ENV_VARS = {
  url: 'STORE_MCP_URL',
  loginKey: 'STORE_LOGIN',
  authToken: 'STORE_AUTH_TOKEN',
} as const;

/** Earlier names of the same pair, still read when neither `STORE_LOGIN` nor `STORE_AUTH_TOKEN` is set. */
export const STORE_MCP_ALIAS_ENV_VARS = {
  loginKey: 'STORE_MCP_LOGIN_KEY',
  authToken: 'STORE_MCP_AUTH_TOKEN',
} as const;

/** @deprecated Use {@link STORE_MCP_ENV_VARS} (every package names environment variables `*_ENV_VAR(S)`). */
export const STORE_MCP_ENV = STORE_MCP_ENV_VARS;
/** @deprecated Use {@link STORE_MCP_ALIAS_ENV_VARS}. */
export const STORE_MCP_ENV_ALIASES = STORE_MCP_ALIAS_ENV_VARS;

/** The pair of variable names the store tool server's credentials are read from. */
export type StoreCredentialEnvVars =
  | { readonly loginKey: typeof STORE_MCP_ENV_VARS.loginKey; readonly authToken: typeof STORE_MCP_ENV_VARS.authToken }
  | typeof STORE_MCP_ALIAS_ENV_VARS;

const REST_PAIR = { loginKey: STORE_MCP_ENV_VARS.loginKey, authToken: STORE_MCP_ENV_VARS.authToken } as const;

/**
 * Which pair of environment variables holds the store tool server's credentials: the REST client's names
 * (`STORE_LOGIN` + `STORE_AUTH_TOKEN`) when either of them is set, else the earlier names (`STORE_MCP_LOGIN_KEY` +
 * `STORE_MCP_AUTH_TOKEN`). The pairs are never mixed: with only `STORE_LOGIN` set, the answer is still the REST
 * pair, and `STORE_AUTH_TOKEN` is what is missing. A variable counts as set when it holds something other than
 * whitespace (an unset CI secret arrives as an empty string).
 *
 * This is the one statement of the rule: `StoreTools` reads its credentials through it, and the contract suite's
 * live tool-server checks choose theirs with it, so both use the same credentials. (`@agent-apis/specs`, which this
 * package is generated from and so cannot import, repeats it; a contract test holds the two to the same answers.)
 *
 * @param read Reads one variable; by default the process environment, as `StoreTools` reads it. Only the names are
 *   returned, never a value.
 */
export function storeCredentialEnvVars(read: (name: string) => string | undefined = readEnv): StoreCredentialEnvVars {
  const isSet = (name: string) => (read(name)?.trim() ?? '') !== '';
  return isSet(REST_PAIR.loginKey) || isSet(REST_PAIR.authToken) ? REST_PAIR : STORE_MCP_ALIAS_ENV_VARS;
}
