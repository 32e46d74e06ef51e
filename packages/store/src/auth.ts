/**
 * Store credentials: which scheme a client uses (HTTP Basic or OAuth2 bearer), where the credentials come from
 * (options, else environment), and the header that carries them (never a URL).
 */

import { AgentApiError, MissingCredentialsError } from '@agent-apis/core';
import { readEnv } from '@agent-apis/core/service';

/** Environment variables read when the options carry no credentials. */
export const CREDENTIAL_ENV_VARS = {
  login: 'STORE_LOGIN',
  authToken: 'STORE_AUTH_TOKEN',
  accessToken: 'STORE_ACCESS_TOKEN',
} as const;

/** Credential options of the client: `{ login, authToken }` (HTTP Basic) or `{ accessToken }` (OAuth2 bearer). */
export interface StoreCredentialOptions {
  /** Store login, sent as the HTTP Basic user name (env `STORE_LOGIN`). */
  login?: string | undefined;
  /** Store auth token, sent as the HTTP Basic password (env `STORE_AUTH_TOKEN`). */
  authToken?: string | undefined;
  /** OAuth2 access token of an app, sent as `Authorization: Bearer …` (env `STORE_ACCESS_TOKEN`). */
  accessToken?: string | undefined;
}

/** The one scheme a client authenticates with. */
export type StoreCredentials =
  | { scheme: 'basic'; login: string; authToken: string }
  | { scheme: 'bearer'; accessToken: string };

/**
 * Picks the credentials: the options when they name any credential, otherwise the environment. Throws a
 * {@link MissingCredentialsError} naming the options and variables when none are found, and an
 * {@link AgentApiError} when only half of the Basic pair is given or both schemes are. The message never
 * contains a credential value.
 */
export function resolveCredentials(options: StoreCredentialOptions): StoreCredentials {
  const fromOptions = options.login ?? options.authToken ?? options.accessToken;
  if (fromOptions !== undefined) return credentialsFrom(options, { login: 'login', authToken: 'authToken' }, 'options');
  const fromEnv = {
    login: readEnv(CREDENTIAL_ENV_VARS.login),
    authToken: readEnv(CREDENTIAL_ENV_VARS.authToken),
    accessToken: readEnv(CREDENTIAL_ENV_VARS.accessToken),
  };
  return credentialsFrom(fromEnv, CREDENTIAL_ENV_VARS, 'environment');
}

function credentialsFrom(
  source: StoreCredentialOptions,
  names: { login: string; authToken: string },
  where: 'options' | 'environment',
): StoreCredentials {
  const { login, authToken, accessToken } = source;
  const hasBasic = Boolean(login || authToken);
  if (hasBasic && accessToken) {
    throw new AgentApiError(
      `StoreClient uses one authentication scheme, but the ${where} hold both the Basic pair and an access token: ` +
        'keep either { login, authToken } or { accessToken }',
    );
  }
  if (accessToken) return { scheme: 'bearer', accessToken };
  if (login && authToken) return { scheme: 'basic', login, authToken };
  if (hasBasic) {
    const missing = login ? names.authToken : names.login;
    throw new AgentApiError(`StoreClient needs ${missing} too: HTTP Basic takes ${names.login} and ${names.authToken}`);
  }
  throw new MissingCredentialsError({
    client: 'StoreClient',
    options: [['login', 'authToken'], 'accessToken'],
    envVars: [[CREDENTIAL_ENV_VARS.login, CREDENTIAL_ENV_VARS.authToken], CREDENTIAL_ENV_VARS.accessToken],
  });
}

/** The `Authorization` header of the chosen scheme; credentials never enter a URL. */
export function authHeaders(credentials: StoreCredentials): Record<string, string> {
  return {
    authorization:
      credentials.scheme === 'basic'
        ? `Basic ${base64(`${credentials.login}:${credentials.authToken}`)}`
        : `Bearer ${credentials.accessToken}`,
  };
}

/** The credential values by option name, for the construction checks (line breaks, NUL). */
export function credentialOptions(credentials: StoreCredentials): Record<string, string> {
  return credentials.scheme === 'basic'
    ? { login: credentials.login, authToken: credentials.authToken }
    : { accessToken: credentials.accessToken };
}

/**
 * Every form in which the credentials could be echoed back, for redaction: the raw values and the Basic
 * `login:authToken` pair base64-encoded.
 */
export function credentialSecrets(credentials: StoreCredentials): string[] {
  if (credentials.scheme === 'bearer') return [credentials.accessToken];
  const { login, authToken } = credentials;
  return [login, authToken, base64(`${login}:${authToken}`)];
}

/** Base64 of the UTF-8 bytes of `text` (`btoa` alone refuses characters beyond Latin-1). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
