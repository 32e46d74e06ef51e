/**
 * The checks of a client's settings, the one place base URLs, credentials and headers are checked (the service
 * clients and the MCP tool clients use them) at construction: the base URL, the credentials' characters and the
 * default headers. The check of credentials over plain `http`, made at the first call, is `plain-http.ts`.
 */

import type { HeadersInput } from '../../operations.js';
import { AgentApiError, InvalidBaseUrlError } from './errors.js';

/** How {@link checkBaseUrl} words and checks one URL option. */
export interface BaseUrlRules {
  /** The option's name in messages (default `baseUrl`; the MCP tool clients' is `url`). */
  option?: string | undefined;
  /** A path the URL must end with, e.g. `/v1` (asked of non-loopback hosts only). */
  suffix?: string | undefined;
  /** Whether a query or fragment is let through (default false: a base URL has neither). */
  allowQuery?: boolean | undefined;
}

/**
 * `raw` as a base URL without trailing slash. Throws {@link InvalidBaseUrlError} when it does not parse, has no
 * http(s) scheme, carries credentials (`user:pass@`), has a query or fragment (unless allowed), or does not end with
 * `suffix` (asked of non-loopback hosts only: local mocks serve the spec's paths at their root). No message quotes
 * a credential.
 */
export function checkBaseUrl(client: string, raw: string, rules: BaseUrlRules = {}): string {
  const { option = 'baseUrl', suffix, allowQuery = false } = rules;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidBaseUrlError(
      `${client} ${option} must be an absolute http(s) URL such as https://api.example.com${suffix ?? ''}, got ${JSON.stringify(shownUrl(String(raw)))}`,
    );
  }
  if (url.username || url.password) {
    throw new InvalidBaseUrlError(
      `${client} ${option} must not carry credentials (user:password@); pass them as the client's credential options`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidBaseUrlError(`${client} ${option} must use http or https, got ${url.protocol}`);
  }
  const trimmed = url.href.replace(/\/+$/, '');
  if (!allowQuery && (url.search || url.hash)) {
    throw new InvalidBaseUrlError(`${client} ${option} must not have a query or fragment: ${shownUrl(trimmed)}`);
  }
  // Loopback mocks (Prism, stand-ins) serve the spec's paths at their root, so the suffix is asked of real hosts only.
  if (suffix && !isLoopback(url.hostname) && !url.pathname.replace(/\/+$/, '').endsWith(suffix)) {
    // A path holding `=`, `;` or `&` may carry a key: only the origin is shown then.
    const shown = /[;=&%@]/.test(url.pathname) ? `${url.origin}/…` : trimmed;
    throw new InvalidBaseUrlError(`${client} ${option} must end with ${suffix} (the API root), got ${shown}`);
  }
  return trimmed;
}

/**
 * A URL as an error may quote it: everything up to its last `@` masked (`user:password@`, or a secret in a string
 * that does not parse), and whatever follows `?` or `#` left out (a query may carry a key); no redaction code is
 * needed at construction.
 */
function shownUrl(raw: string): string {
  // Everything up to the last `@` is masked first (a password may hold `?`, `#` or `/`), then the query is cut.
  const afterScheme = raw.replace(/\/\/.*@/, '//***@');
  const masked = afterScheme === raw ? raw.replace(/^.*@/, '***@') : afterScheme;
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

/**
 * `headers` as a `Headers`, each checked for what no header can carry (CR, LF, NUL, a name that is no token): the
 * error names the option and the header, never its value.
 */
export function checkedHeaders(
  client: string,
  headers: HeadersInput | undefined,
  option = 'defaultHeaders',
): Headers | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Headers) return new Headers(headers);
  const checked = new Headers();
  for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers)) {
    try {
      checked.append(name, value);
    } catch {
      const shown = isHeaderName(name) ? name : JSON.stringify(name);
      throw new AgentApiError(
        `${client} ${option}: header ${shown} has a name, or a value (a line break, NUL, …), that no request can carry`,
      );
    }
  }
  return checked;
}

/** Whether `name` is a valid header name (an HTTP token), so that a message may show it. */
export function isHeaderName(name: unknown): name is string {
  return typeof name === 'string' && /^[!#$%&'*+.^_`|~\w-]+$/.test(name);
}

/**
 * Whether `value` is an `AbortSignal`, of this realm or another (a polyfill): the transport only reads `aborted` and
 * `reason`, and listens for `abort`.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null | undefined;
  return typeof signal?.aborted === 'boolean' && typeof signal.addEventListener === 'function';
}
