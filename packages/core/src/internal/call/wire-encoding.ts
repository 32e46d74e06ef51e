/**
 * What a call's inputs become on the wire: the path with its parameters filled in, the query string, the headers.
 * Loaded with the transport at a client's first call; the inputs were checked before (`input-check.ts`).
 */
import type { CallHeaders, QueryConstraint } from '../../operations.js';

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

/** The headers of a call as a `Headers`, `undefined` values left out. */
export function callHeaders(headers: CallHeaders | undefined): Headers {
  if (!headers || headers instanceof Headers || Array.isArray(headers)) return new Headers(headers as HeadersInit);
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) result.set(name, String(value));
  return result;
}
