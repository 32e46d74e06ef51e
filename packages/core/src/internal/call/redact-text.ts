/**
 * Masking credentials in text and URLs: the part of redaction a client needs before its first call (the trust
 * guard's errors name the URL they stopped) and which headers carry credentials (the shared cache keeps no answer
 * to a request with one). The rest, headers, values and errors, is in `redact.ts`.
 */

/** The placeholder that replaces a credential. */
export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are not masked inside free text (masking "ab" everywhere would mangle messages). */
export const MIN_SECRET_LENGTH = 4;

const CREDENTIAL_QUERY_PARAMS = [
  'login',
  'authtoken',
  'auth_token',
  'access_token',
  'api_key',
  'apikey',
  'token',
  'key',
  'password',
  'secret',
  'client_secret',
];
const CREDENTIAL_QUERY_PARAM_SET = new Set(CREDENTIAL_QUERY_PARAMS);

/** `name=value` of a credential query parameter inside a URL or any text. */
const QUERY_CREDENTIAL_IN_TEXT = new RegExp(`([?&;](?:${CREDENTIAL_QUERY_PARAMS.join('|')})=)[^&#\\s"'<>]*`, 'gi');
/** `Bearer xxx` / `Basic xxx` credentials quoted in text (e.g. an echoed header). */
const SCHEME_CREDENTIAL_IN_TEXT = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** `https://user:password@host` */
const URL_USERINFO_IN_TEXT = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s:]+:[^/@\s]*@/gi;

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-login-key',
]);
const CREDENTIAL_HEADER_PATTERN = /token|secret|key|password|auth/i;

/** True when a header carries credentials (fixed list plus any name matching token/secret/key/password/auth). */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || CREDENTIAL_HEADER_PATTERN.test(lower);
}

/** True when a query parameter carries credentials (login, authtoken, api_key, token, …). */
export function isCredentialQueryParam(name: string): boolean {
  return CREDENTIAL_QUERY_PARAM_SET.has(name.toLowerCase());
}

/**
 * Masks every known secret value, in every form it travels in, and every recognisable credential pattern in `text`.
 * A secret is matched in any case, URL-encoded, and base64-encoded (alone, at any alignment inside a longer base64
 * run, and as the `a:b` pair of any two secrets, which is what a `Basic` header carries).
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  // Every credential pattern needs an `=`, an `@` or a space: text with none of them and no secrets to look for
  // (a plain URL, as the HTTP cache keys one per call) is returned as it is.
  if (secrets.length === 0 && !/[=@\s]/.test(text)) return text;
  let result = text;
  const forms = secretForms(secrets);
  if (forms.length > 0) result = result.replace(new RegExp(forms.map(escapeRegExp).join('|'), 'gi'), REDACTED);
  return result
    .replace(QUERY_CREDENTIAL_IN_TEXT, `$1${REDACTED}`)
    .replace(SCHEME_CREDENTIAL_IN_TEXT, `$1 ${REDACTED}`)
    .replace(URL_USERINFO_IN_TEXT, `$1${REDACTED}@`);
}

/**
 * Every form of the given secrets worth looking for, longest first (so a secret containing another is masked
 * whole): the secret, URL-encoded, base64 of it at each of the three alignments a longer encoded run can give it,
 * and base64 of `a:b` for every ordered pair (a login beside its token).
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  const long = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  for (const secret of long) {
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    const bytes = new TextEncoder().encode(secret).length;
    for (let shift = 0; shift < 3; shift++) {
      // `shift` filler bytes before the secret; the characters that depend on the filler or on what follows are cut.
      const encoded = base64(`${'\0'.repeat(shift)}${secret}`);
      const core = encoded.slice(Math.ceil((shift * 4) / 3), Math.floor(((shift + bytes) * 4) / 3));
      if (core.length >= MIN_SECRET_LENGTH) forms.add(core);
    }
    for (const other of secrets)
      if (other !== secret) forms.add(base64(`${other}:${secret}`)).add(base64(`${secret}:${other}`));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A URL with credential query parameters and user-info masked. */
export function redactUrl(url: string | URL, secrets: readonly string[] = []): string {
  return redactText(String(url), secrets);
}
