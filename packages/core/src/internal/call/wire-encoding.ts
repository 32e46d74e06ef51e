/**
 * What a call's inputs become on the wire: the path with its parameters filled in, the query string, the headers.
 * Loaded with the transport at a client's first call; the inputs were checked before (`input-check.ts`).
 */

import type { CallHeaders, QueryConstraint } from '../../operations.js';
import { isHeaderName } from './client-checks.js';
import { RequestValidationError } from './errors.js';

/** `path` with its template variables replaced by the encoded values of `values` (validated beforehand). */
export function expandPath(path: string, values: Record<string, unknown> | undefined): string {
  if (!path.includes('{')) return path;
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values?.[name])));
}

/** The query string (with its `?`, or empty) of `values`: arrays per `explode`, objects as `name[key]=value`. */
export function serializeQuery(
  constraints: Readonly<Record<string, QueryConstraint>> | undefined,
  values: Record<string, unknown> | undefined,
): string {
  if (!values) return '';
  const parts: string[] = [];
  const add = (name: string, value: unknown) => {
    // Brackets stay literal in names (`status_filters[]`, `filter[status]`), as servers and hey-api spell them.
    const encoded = encodeURIComponent(name);
    const key = encoded.includes('%5') ? encoded.replace(/%5B/g, '[').replace(/%5D/g, ']') : encoded;
    parts.push(`${key}=${encodeURIComponent(String(value))}`);
  };
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (constraints?.[name]?.explode === false) add(name, value.join(','));
      else for (const item of value) add(name, item);
    } else if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value))
        if (item !== undefined && item !== null) add(`${name}[${key}]`, item);
    } else add(name, value);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/**
 * The headers of a call as a `Headers`, `undefined` values left out. A header no request can carry (a name that is
 * no token; a value holding CR, LF, NUL or a character past U+00FF) is a {@link RequestValidationError} naming the
 * header (`headers.x-api-key`), never quoting its value: fetch's own error quotes it, and it may be a credential.
 * `operation` names the call (a function, for callers that name it only when something fails).
 */
export function callHeaders(headers: CallHeaders | undefined, operation: string | (() => string)): Headers {
  if (!headers || headers instanceof Headers) return new Headers(headers);
  const result = new Headers();
  let at: unknown;
  try {
    // Appended, as fetch does with a record or pairs given to `new Headers`.
    for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers)) {
      at = name;
      if (value !== undefined) result.append(name, String(value));
    }
  } catch {
    throw new RequestValidationError({
      operation: typeof operation === 'string' ? operation : operation(),
      field: isHeaderName(at) ? `headers.${at}` : 'headers',
      reason: 'holds a header no request can carry (a line break, NUL, …); its value is not shown',
    });
  }
  return result;
}

/**
 * `body` as the JSON text sent. A body JSON cannot encode (a BigInt, a cycle, a `toJSON` that throws, a function)
 * is a {@link RequestValidationError} naming `body` (the encoder's error as its `cause`), before anything is sent:
 * never a raw `TypeError` from the middle of the call.
 */
export function jsonBody(body: unknown, operation: string): string {
  let text: string | undefined;
  let cause: unknown;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    cause = error;
  }
  if (text === undefined) {
    throw new RequestValidationError(
      { operation, field: 'body', reason: 'cannot be encoded as JSON (a BigInt, a cycle, a function, …)' },
      { cause },
    );
  }
  return text;
}
