/**
 * The checks of a client's settings, the one place base URLs, credentials and headers are checked (the service
 * clients and the MCP tool clients use them): at construction the base URL, the credentials' characters and the
 * default headers; at the first call, credentials over plain `http` (they would cross the network in clear, so a
 * client with credentials refuses a plain-http base URL to a host that is not loopback unless `allowInsecureHttp`
 * says so).
 */
import { AgentApiError, InvalidBaseUrlError } from '../../errors.js';
import type { HeadersInput } from '../../operations.js';

/**
 * `raw` as a base URL without trailing slash. Throws {@link InvalidBaseUrlError} when it does not parse, has
 * no http(s) scheme, carries credentials (`user:pass@`), or does not end with `suffix` (asked of non-loopback
 * hosts only: local mocks serve the spec's paths at their root).
 */
export function checkBaseUrl(client: string, raw: string, suffix?: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidBaseUrlError(
      `${client} baseUrl must be an absolute http(s) URL such as https://api.example.com${suffix ?? ''}, got ${JSON.stringify(shownUrl(raw))}`,
    );
  }
  if (url.username || url.password) {
    throw new InvalidBaseUrlError(
      `${client} baseUrl must not carry credentials (user:password@); pass them as the client's credential options`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidBaseUrlError(`${client} baseUrl must use http or https, got ${url.protocol}`);
  }
  const trimmed = url.href.replace(/\/+$/, '');
  if (url.search || url.hash) {
    throw new InvalidBaseUrlError(`${client} baseUrl must not have a query or fragment: ${shownUrl(trimmed)}`);
  }
  // Loopback mocks (Prism, stand-ins) serve the spec's paths at their root, so the suffix is asked of real hosts only.
  if (suffix && !isLoopback(url.hostname) && !url.pathname.replace(/\/+$/, '').endsWith(suffix)) {
    // A path holding `=`, `;` or `&` may carry a key: only the origin is shown then.
    const shown = /[;=&%@]/.test(url.pathname) ? `${url.origin}/…` : trimmed;
    throw new InvalidBaseUrlError(`${client} baseUrl must end with ${suffix} (the API root), got ${shown}`);
  }
  return trimmed;
}

/**
 * A base URL as an error may quote it: `user:password@` masked, and whatever follows `?` or `#` left out (a query
 * may carry a key); no redaction code is needed at construction.
 */
function shownUrl(raw: string): string {
  // Everything up to the last `@` is masked first (a password may hold `?`, `#` or `/`), then the query is cut.
  const masked = raw.replace(/\/\/.*@/, '//***@');
  const cut = masked.search(/[?#]/);
  return cut < 0 ? masked : `${masked.slice(0, cut)}${masked[cut]}…`;
}

export function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}

/** Throws when a credential holds CR, LF or NUL, which would break or smuggle headers; names the option only. */
export function checkCredentials(client: string, credentials: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(credentials)) {
    if (/[\r\n\0]/.test(value)) {
      throw new AgentApiError(`${client} ${name} contains a line break or NUL character, which no header can carry`);
    }
  }
}

export function checkedHeaders(client: string, headers: HeadersInput | undefined): Headers | undefined {
  if (headers === undefined) return undefined;
  try {
    return new Headers(headers);
  } catch {
    throw new AgentApiError(`${client} defaultHeaders holds a header name or value that cannot be sent`);
  }
}

/** Throws an {@link InvalidBaseUrlError} naming `allowInsecureHttp` when `baseUrl` would carry credentials in clear. */
export function refusePlainHttp(client: string, baseUrl: string, allowInsecureHttp: boolean | undefined): void {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || isLoopback(url.hostname) || allowInsecureHttp === true) return;
  throw new InvalidBaseUrlError(
    `${client} baseUrl ${url.origin} would send credentials in clear (plain http, not loopback): use https, or allowInsecureHttp: true`,
  );
}
