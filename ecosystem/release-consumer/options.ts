/**
 * Options read from the environment, passed as they are: under `exactOptionalPropertyTypes` (the bundler
 * check of the consumer test turns it on) every option of the four packages must accept `undefined`. Type-checked
 * only; nothing here runs.
 */
import { DirectoryClient } from '@agent-apis/directory';
import { DirectoryTools, StoreTools, storeCredentialEnvVars } from '@agent-apis/mcp';
import { StoreClient } from '@agent-apis/store';
import { createWebhookHandler } from '@agent-apis/store/webhooks';
import { TrustClient } from '@agent-apis/trust';

const env: Record<string, string | undefined> = process.env;
const timeout = env.TIMEOUT_MS === undefined ? undefined : Number(env.TIMEOUT_MS);
const shared = { timeout, maxRetries: undefined, fetch: undefined, logger: undefined, logLevel: undefined };

export function clients() {
  const store = new StoreClient({
    ...shared,
    baseUrl: env.STORE_BASE_URL,
    login: env.STORE_LOGIN,
    authToken: env.STORE_AUTH_TOKEN,
    accessToken: env.STORE_ACCESS_TOKEN,
    defaultHeaders: undefined,
    validateResponses: undefined,
    rateLimit: { perSecond: undefined, perMinute: undefined },
  });
  const directory = new DirectoryClient({ ...shared, baseUrl: env.DIRECTORY_BASE_URL, cache: undefined });
  const trust = new TrustClient({
    ...shared,
    apiKey: env.ENTROPY0_API_KEY,
    baseUrl: env.TRUST_BASE_URL,
    authScheme: undefined,
    cache: { maxEntries: undefined },
    now: undefined,
  });
  const storeToolNames = storeCredentialEnvVars((name) => env[name]);
  const storeTools = new StoreTools({
    // The clients' names (STORE_LOGIN + STORE_AUTH_TOKEN), else the earlier STORE_MCP_* pair: the rule StoreTools reads by.
    loginKey: env[storeToolNames.loginKey],
    authToken: env[storeToolNames.authToken],
    url: env.STORE_MCP_URL,
    timeout,
    fetch: undefined,
    validateResponses: undefined,
  });
  const directoryTools = new DirectoryTools({ url: env.DIRECTORY_MCP_URL, timeout });
  const hooks = createWebhookHandler({
    token: env.STORE_HOOKS_TOKEN ?? '',
    onEvent: () => {},
    answerWithinMs: undefined,
    onLateError: undefined,
    kindOf: undefined,
  });
  return { store, directory, trust, storeTools, directoryTools, hooks };
}

/** Per-call options take `undefined` as well, on every hand-written method (params follow the spec's types). */
export async function calls(signal: AbortSignal | undefined) {
  const { store, directory, trust, storeTools } = clients();
  const perCall = { signal, timeout: undefined, maxRetries: undefined, headers: undefined };
  await store.products.list({ limit: 10 }, perCall).toArray({ max: 1 });
  await store.products.get(1, {}, perCall);
  await directory.search({ q: 'github' }, perCall);
  await directory.mcpServers.list({ limit: 10 }, perCall).toArray({ max: 1 });
  const decision = await trust.guard('https://example.com', { ...perCall, failOpen: undefined, policy: undefined });
  await storeTools.getStoreInfo({}, { signal, timeout: undefined });
  return decision.action;
}
