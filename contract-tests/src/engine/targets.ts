/**
 * Where each service's contract tests send their requests, and with which credentials. In mock mode every
 * service talks to its Prism mock with canary credentials. In live mode (CONTRACT_TARGET=live) these
 * environment variables are read; a service without them is reported `skipped: no credentials`:
 *
 * | service   | base URL              | credentials                                           |
 * | --------- | --------------------- | ----------------------------------------------------- |
 * | directory | DIRECTORY_BASE_URL    | none needed                                           |
 * | store     | STORE_BASE_URL (opt.) | STORE_LOGIN + STORE_AUTH_TOKEN, or STORE_ACCESS_TOKEN |
 * | trust     | TRUST_BASE_URL (opt.) | ENTROPY0_API_KEY                                      |
 *
 * STORE_APP_CODE (optional) is the operator's own app code, the one path input no store answer supplies.
 *
 * Live runs read only. CONTRACT_ALLOW_WRITES=store (per service, never global) adds the write lifecycles of
 * records the run creates itself (meant for a sandbox store only); CONTRACT_ALLOW_DANGEROUS=<operationId>,…
 * names dangerous operations one by one; see `checks/live.ts` and `engine/budget.ts`.
 */
import { STORE_MCP_ALIAS_ENV_VARS, STORE_MCP_ENV_VARS, storeCredentialEnvVars } from '@agent-apis/mcp';
import { storeToolServerNotPointed } from '@agent-apis/specs/mcp-drift';

export interface ServiceTarget {
  service: 'directory' | 'store' | 'trust';
  /** The live service's base URL (live mode only). */
  upstream?: string;
  /** Where the client sends requests: the Prism mock, or the live upstream. Set by the global setup. */
  baseUrl?: string;
  prismLog?: string;
  /** Credentials for the client (canaries in mock mode). */
  credentials: Record<string, string>;
  /** Why this service is not exercised (live mode without configuration). */
  skipReason?: string;
}

export const CANARY = {
  store: { login: 'canary-login-7f3a', authToken: 'canary-store-token-9b1c' },
  trust: { apiKey: 'sk_ent0_canary_4d2e8f' },
};

type Targets = Record<ServiceTarget['service'], ServiceTarget>;

/** Every service against its Prism mock, with canary credentials (they must never show up in reports). */
export function mockTargets(): Targets {
  return {
    directory: { service: 'directory', credentials: {} },
    store: { service: 'store', credentials: CANARY.store },
    trust: { service: 'trust', credentials: CANARY.trust },
  };
}

/** The services whose live base URL and credentials are configured in `env`; the others carry a skip reason. */
export function liveTargets(env: Record<string, string | undefined>): Targets {
  const storeCredentials: Record<string, string> | undefined = env.STORE_ACCESS_TOKEN
    ? { accessToken: env.STORE_ACCESS_TOKEN }
    : env.STORE_LOGIN && env.STORE_AUTH_TOKEN
      ? { login: env.STORE_LOGIN, authToken: env.STORE_AUTH_TOKEN }
      : undefined;
  return {
    directory: env.DIRECTORY_BASE_URL
      ? { service: 'directory', upstream: env.DIRECTORY_BASE_URL, credentials: {} }
      : { service: 'directory', credentials: {}, skipReason: 'no credentials (DIRECTORY_BASE_URL not set)' },
    store: storeCredentials
      ? {
          service: 'store',
          upstream: env.STORE_BASE_URL ?? 'https://api.jumpseller.com/v1',
          credentials: storeCredentials,
        }
      : {
          service: 'store',
          credentials: {},
          skipReason: 'no credentials (STORE_LOGIN + STORE_AUTH_TOKEN or STORE_ACCESS_TOKEN)',
        },
    trust: env.ENTROPY0_API_KEY
      ? {
          service: 'trust',
          upstream: env.TRUST_BASE_URL ?? 'https://entropy0.ai/api',
          credentials: { apiKey: env.ENTROPY0_API_KEY },
        }
      : { service: 'trust', credentials: {}, skipReason: 'no credentials (ENTROPY0_API_KEY not set)' },
  };
}

/**
 * The agent tool servers. Mock mode: a local server built from the pin (see `@agent-apis/test-servers/tool-server`) that expects the
 * canary credentials. Live mode reads:
 *
 * | server    | URL                                                  | credentials                                   |
 * | --------- | ---------------------------------------------------- | --------------------------------------------- |
 * | store     | STORE_MCP_URL (https://mcp.jumpseller.com only while STORE_BASE_URL is unset or the vendor's host) | STORE_LOGIN + STORE_AUTH_TOKEN, or the earlier names STORE_MCP_LOGIN_KEY + STORE_MCP_AUTH_TOKEN when neither of the first two is set |
 * | directory | DIRECTORY_MCP_URL (required: not published)          | none needed                                   |
 *
 * The store's pair is chosen by `storeCredentialEnvVars` of @agent-apis/mcp, the rule `StoreTools` reads its
 * credentials by, so a live check uses the credentials a user's client would: never a mix of the two pairs.
 */
export interface ToolServerTarget {
  service: 'store' | 'directory';
  /** The live endpoint (live mode only; mock mode starts a local server). */
  url?: string;
  /** `loginKey` + `authToken` for the store. */
  credentials: { loginKey?: string; authToken?: string };
  skipReason?: string;
}

export const MCP_CANARY = { loginKey: 'canary-mcp-login-2b6d', authToken: 'canary-mcp-token-7e4a' };

export function mockToolServerTargets(): Record<ToolServerTarget['service'], ToolServerTarget> {
  return { store: { service: 'store', credentials: MCP_CANARY }, directory: { service: 'directory', credentials: {} } };
}

export function liveToolServerTargets(
  env: Record<string, string | undefined>,
): Record<ToolServerTarget['service'], ToolServerTarget> {
  // Read as `StoreTools` reads the environment: a blank variable is unset, a value is trimmed.
  const read = (name: string) => env[name]?.trim() || undefined;
  const names = storeCredentialEnvVars(read);
  const loginKey = read(names.loginKey);
  const authToken = read(names.authToken);
  // Half a pair is not completed from the other one (as `StoreTools`, which refuses it naming the missing half).
  const [setHalf, missingHalf] = loginKey ? [names.loginKey, names.authToken] : [names.authToken, names.loginKey];
  const { loginKey: login, authToken: token } = STORE_MCP_ENV_VARS;
  const { loginKey: aliasLogin, authToken: aliasToken } = STORE_MCP_ALIAS_ENV_VARS;
  // Credentials only where the user pointed them: the vendor's address only for a store on the vendor's host.
  const notPointed = storeToolServerNotPointed(env);
  return {
    store:
      loginKey && authToken && notPointed
        ? { service: 'store', credentials: {}, skipReason: notPointed }
        : loginKey && authToken
          ? {
              service: 'store',
              url: env.STORE_MCP_URL ?? 'https://mcp.jumpseller.com',
              credentials: { loginKey, authToken },
            }
          : {
              service: 'store',
              credentials: {},
              skipReason:
                loginKey || authToken
                  ? `no credentials (${setHalf} is set without ${missingHalf})`
                  : `no credentials (${login} + ${token}, or ${aliasLogin} + ${aliasToken})`,
            },
    directory: env.DIRECTORY_MCP_URL
      ? { service: 'directory', url: env.DIRECTORY_MCP_URL, credentials: {} }
      : { service: 'directory', credentials: {}, skipReason: 'no address (DIRECTORY_MCP_URL not set)' },
  };
}
