/**
 * Redaction of credentials in headers, URLs, free text and arbitrary values.
 * Every function returns a new value; inputs are never mutated.
 */

import type { HeadersInput } from '../../operations.js';
import type { RequestDescription } from './answer-errors.js';
import { isCredentialHeader, isCredentialQueryParam, REDACTED, redactText, redactUrl } from './redact-text.js';

export type { RequestDescription } from './answer-errors.js';
export {
  isCredentialHeader,
  isCredentialQueryParam,
  MIN_SECRET_LENGTH,
  REDACTED,
  redactText,
  redactUrl,
} from './redact-text.js';

/** A plain-object copy of `headers` with credential headers masked and known secrets masked in the others. */
export function redactHeaders(
  headers: HeadersInput | undefined,
  secrets: readonly string[] = [],
): Record<string, string> {
  const redacted: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    redacted[name] = isCredentialHeader(name) ? REDACTED : redactText(value, secrets);
  });
  return redacted;
}

/**
 * The secret values a request carries: credential header values (and, for `Basic`/`Bearer` schemes, the
 * encoded token and the decoded password), plus credential query parameter values.
 */
export function secretsFromRequest(request: { readonly headers: Headers; readonly url: string }): string[] {
  const secrets: string[] = [];
  request.headers.forEach((value, name) => {
    if (!isCredentialHeader(name) || name === 'set-cookie') return;
    secrets.push(value);
    const scheme = /^(\w+)\s+(.+)$/.exec(value.trim());
    if (!scheme?.[1] || !scheme[2]) return;
    secrets.push(scheme[2]);
    if (scheme[1].toLowerCase() === 'basic') secrets.push(...basicCredentialParts(scheme[2]));
  });
  const query = new URL(request.url).searchParams;
  query.forEach((value, name) => {
    if (isCredentialQueryParam(name)) secrets.push(value);
  });
  return secrets.filter((secret) => secret.length > 0);
}

function basicCredentialParts(encoded: string): string[] {
  try {
    const decoded = atob(encoded);
    const separator = decoded.indexOf(':');
    return separator < 0 ? [decoded] : [decoded, decoded.slice(separator + 1)];
  } catch {
    return [];
  }
}

/** Describes a request for errors and logs, with every credential masked. */
export function describeRequest(
  request: { readonly method: string; readonly url: string; readonly headers: Headers },
  secrets: readonly string[] = [],
): RequestDescription {
  return {
    method: request.method.toUpperCase(),
    url: redactUrl(request.url, secrets),
    headers: redactHeaders(request.headers, secrets),
  };
}

/** Options for {@link redactValue}. */
export interface RedactValueOptions {
  /** Also mask the values of object keys that look like credentials (`password`, `apiKey`, `authorization`, …). */
  maskCredentialKeys?: boolean;
}

const MAX_REDACT_DEPTH = 8;

/**
 * A deep copy of `value` that is safe to print: strings are passed through {@link redactText}, `Headers`, `URL`,
 * `Request` and `Response` become redacted descriptions, errors become sanitized errors (see {@link redactError}).
 */
export function redactValue(
  value: unknown,
  secrets: readonly string[] = [],
  options: RedactValueOptions = {},
): unknown {
  return redactAt(value, secrets, options, 0, new WeakSet());
}

function redactAt(
  value: unknown,
  secrets: readonly string[],
  options: RedactValueOptions,
  depth: number,
  seen: WeakSet<object>,
): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return redactError(value, secrets);
  if (value instanceof Headers) return redactHeaders(value, secrets);
  if (value instanceof URL) return redactUrl(value, secrets);
  if (value instanceof URLSearchParams) return redactText(`?${value.toString()}`, secrets).slice(1);
  if (value instanceof Request) return describeRequest(value, [...secrets, ...secretsFromRequest(value)]);
  if (value instanceof Response) {
    const { status, statusText, url } = value;
    return { status, statusText, url: redactUrl(url, secrets), headers: redactHeaders(value.headers, secrets) };
  }
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_REDACT_DEPTH) return '[Truncated]';
  seen.add(value);
  const next = (item: unknown) => redactAt(item, secrets, options, depth + 1, seen);
  if (Array.isArray(value)) return value.map(next);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const credentialKey = options.maskCredentialKeys && (isCredentialHeader(key) || isCredentialQueryParam(key));
    copy[key] = credentialKey && item !== undefined && item !== null ? REDACTED : next(item);
  }
  return copy;
}

const MAX_CAUSE_DEPTH = 4;

/**
 * A sanitized plain `Error` copy of an error: same name and `code`, with message, stack and
 * cause chain redacted. Used for causes of connection errors and for errors handed to a logger.
 */
export function redactError(error: Error, secrets: readonly string[] = [], depth = 0): Error {
  const copy = new Error(redactText(error.message, secrets));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : redactText(error.stack, secrets);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, { code });
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    const cause =
      error.cause instanceof Error
        ? redactError(error.cause, secrets, depth + 1)
        : redactValue(error.cause, secrets, { maskCredentialKeys: true });
    Object.defineProperty(copy, 'cause', { value: cause, enumerable: false, writable: true, configurable: true });
  }
  return copy;
}
