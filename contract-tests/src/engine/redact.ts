/**
 * What of a live target may be shown: test titles, progress lines, failures and reproductions show the base URL
 * without its `user:password@`, query and any path segment that could be a key (only plain words and versions
 * like `api`, `v1` stay), and a URL sent with the base replaced so. A reproduction names credentials as
 * environment variables, never their values.
 */
import { isCredentialQueryParam } from '@agent-apis/core/call';

const PLAIN_SEGMENT = /^(?:[a-z][a-z_-]{0,19}|v\d{1,3}(?:\.\d{1,3})?)$/i;

/** `https://user:pw@host/k3y-123/v1?token=x` → `https://host/***\/v1`. */
export function displayBase(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return '(a base URL that does not parse)';
  }
  const path = url.pathname
    .split('/')
    .map((segment) => (segment === '' || PLAIN_SEGMENT.test(decodeURIComponent(segment)) ? segment : '***'))
    .join('/');
  return `${url.protocol}//${url.host}${path === '/' ? '' : path.replace(/\/$/, '')}`;
}

/** The part of `url` after `baseUrl` (path and query), credential query parameters removed. */
export function pathAfterBase(url: string, baseUrl: string): string {
  let sent: URL;
  let base: URL;
  try {
    sent = new URL(url);
    base = new URL(baseUrl);
  } catch {
    return '';
  }
  for (const name of [...sent.searchParams.keys()]) if (isCredentialQueryParam(name)) sent.searchParams.delete(name);
  const basePath = base.pathname.replace(/\/$/, '');
  const path = sent.pathname.startsWith(basePath) ? sent.pathname.slice(basePath.length) : sent.pathname;
  return `${path}${sent.search}`;
}

/** The URL sent, as it may be shown: the base displayed as `displayBase` shows it. */
export function displayUrl(url: string, baseUrl: string): string {
  return `${displayBase(baseUrl)}${pathAfterBase(url, baseUrl)}`;
}

/** How a reproduction refers to a service: the variable of its base URL and its credentials as curl arguments. */
export interface ReproductionProfile {
  /** The environment variable of the base URL (`STORE_BASE_URL`). */
  baseUrlEnv: string;
  /** curl arguments naming credentials by variable (`-u "$STORE_LOGIN:$STORE_AUTH_TOKEN"`). */
  auth: string[];
}

/** Quoted for a POSIX shell: single quotes, a single quote written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const MAX_BODY = 2000;

/** A one-line `curl` that sends the request again; credentials and the base URL as environment variables. */
export function reproduction(
  request: { method: string; url: string; body?: string | undefined },
  baseUrl: string,
  profile: ReproductionProfile,
): string {
  // The path goes inside double quotes after "$BASE": characters the shell would expand are escaped.
  const rest = pathAfterBase(request.url, baseUrl).replace(/["$`\\]/g, (c) => `\\${c}`);
  const parts = ['curl', '-sS', '-X', request.method, `"$${profile.baseUrlEnv}${rest}"`, ...profile.auth];
  if (request.body !== undefined && request.body !== '') {
    parts.push('-H', shellQuote('content-type: application/json'));
    parts.push(
      '-d',
      request.body.length > MAX_BODY
        ? shellQuote(`(a body of ${request.body.length} characters, cut)`)
        : shellQuote(request.body.replace(/\s*\n\s*/g, ' ')),
    );
  }
  return parts.join(' ');
}
