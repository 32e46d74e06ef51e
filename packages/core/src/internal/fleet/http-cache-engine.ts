/**
 * What an {@link HttpCache} does with a request: `Cache-Control` freshness, `ETag` / `Last-Modified`
 * revalidation, `Vary`, LRU eviction, the shared tier. Loaded by the cache at its first request, so code that
 * imports the class (every directory import does) carries none of it until a call goes through a cache.
 */

import { ResponseTooLargeError } from '../call/answer-errors.js';
import { readBoundedBody } from '../call/body-reader.js';
import { isCredentialHeader, isCredentialQueryParam, redactUrl } from '../call/redact-text.js';
import {
  CACHE_STATUS_HEADER,
  type CacheEntry,
  type CachePlan,
  type CacheRequest,
  type CacheState,
  hasValidators,
} from './cache-entry.js';
import { fingerprint } from './fingerprint.js';

/** How far in the future a shared entry's receipt time may be (another process's clock) before it is a miss. */
const MAX_CLOCK_SKEW_MS = 60_000;

/** Largest body written to the shared tier. */
const MAX_SHARED_BODY_BYTES = 1024 * 1024;

/** Headers a 304 must not overwrite in the stored response. */
const NOT_UPDATED_BY_304 = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'content-range']);
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Request headers that steer the cache rather than select a response: left out of the key. */
const REQUEST_CACHE_DIRECTIVES = new Set(['cache-control', 'pragma', 'if-none-match', 'if-modified-since']);

/** The directives of a request that sends no `Cache-Control` (read only, shared). */
const NO_DIRECTIVES: ReadonlyMap<string, string> = new Map();

/** Lower-case `Cache-Control` directives mapped to their value (empty string when valueless). */
export function parseCacheControl(value: string | null): Map<string, string> {
  const directives = new Map<string, string>();
  if (!value) return directives;
  for (const part of value.split(',')) {
    const [name, ...rest] = part.split('=');
    const key = name?.trim().toLowerCase();
    if (key) directives.set(key, rest.join('=').trim().replace(/^"|"$/g, ''));
  }
  return directives;
}

/**
 * How long a response may be reused without revalidation, in ms: `max-age` minus `Age`, or for a shared cache
 * `s-maxage` first (RFC 9111 §5.2.2.10); 0 if `no-cache` or `no-store`.
 */
function freshnessMs(headers: Headers, shared: boolean): number {
  const directives = parseCacheControl(headers.get('cache-control'));
  if (directives.has('no-cache') || directives.has('no-store')) return 0;
  const maxAge = Number(directives.get(shared && directives.has('s-maxage') ? 's-maxage' : 'max-age'));
  if (!Number.isFinite(maxAge) || maxAge <= 0) return 0;
  const age = Number(headers.get('age') ?? 0);
  return Math.max(0, (maxAge - (Number.isFinite(age) ? age : 0)) * 1000);
}

function varyNamesOf(headers: Headers): string[] {
  return (headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

function varyKeyOf(request: CacheRequest, names: readonly string[]): string {
  return fingerprint(...names.map((name) => `${name}:${request.headers.get(name) ?? ''}`));
}

/** Hands the answer back untouched. */
const unchanged = (response: Response): Response => response;

/**
 * The plan for `request`: synchronous, unless a shared tier must be asked. `request.headers` must be every header
 * that will be sent: keys and `Vary` see them.
 */
export function plan(state: CacheState, request: CacheRequest): CachePlan | Promise<CachePlan> {
  const method = request.method.toUpperCase();
  if (method !== 'GET') {
    if (!UNSAFE_METHODS.has(method)) return { sent: request, complete: unchanged };
    return {
      sent: request,
      complete: (response) => {
        if (response.status < 400) {
          const prefix = `GET ${redactUrl(request.url)} `;
          for (const key of [...state.entries.keys()]) if (key.startsWith(prefix)) remove(state, key);
        }
        return response;
      },
    };
  }
  const cacheControl = request.headers.get('cache-control');
  const requestDirectives = cacheControl ? parseCacheControl(cacheControl) : NO_DIRECTIVES;
  const conditionalByCaller = request.headers.has('if-none-match') || request.headers.has('if-modified-since');
  if (requestDirectives.has('no-store') || conditionalByCaller) return { sent: request, complete: unchanged };
  // An empty cache with no shared tier holds nothing to look up: the key is worked out only when something is kept.
  if (state.entries.size === 0 && !state.shared)
    return planFor(state, request, undefined, undefined, requestDirectives);
  const key = primaryKey(request);
  const local = lookup(state, key, request);
  // A stale copy of this process asks the fleet's tier first: another process may hold a fresher one.
  if ((local && state.now() - local.receivedAt < local.freshForMs) || !state.shared) {
    return planFor(state, request, key, local, requestDirectives);
  }
  return sharedLookup(state, key, request).then((shared) =>
    planFor(state, request, key, shared ?? local, requestDirectives),
  );
}

function planFor(
  state: CacheState,
  request: CacheRequest,
  knownKey: string | undefined,
  entry: CacheEntry | undefined,
  requestDirectives: ReadonlyMap<string, string>,
): CachePlan {
  if (entry && !requestDirectives.has('no-cache') && state.now() - entry.receivedAt < entry.freshForMs) {
    return { hit: responseFrom(entry, 'hit'), sent: request, complete: unchanged };
  }
  const sent = entry && hasValidators(entry.headers) ? withValidators(request, entry) : request;
  return {
    sent,
    complete: (response, readable) => {
      if (entry && response.status === 304) {
        const key = knownKey ?? primaryKey(request);
        const refreshed = refresh(state, key, entry, response.headers);
        sharedWrite(state, key, request, refreshed, true);
        return responseFrom(refreshed, 'revalidated');
      }
      // Without Cache-Control or validators an answer is neither stored nor a reason to drop one: nothing to wait for.
      if (!response.headers.has('cache-control') && !hasValidators(response.headers)) return response;
      const key = knownKey ?? primaryKey(request);
      return store(state, key, request, response, readable).then((stored) => {
        if (stored) sharedWrite(state, key, request, stored);
        return response;
      });
    },
  };
}

/**
 * Answers `request` from the cache when it can, else through `next` (with validators added when revalidating),
 * storing a cacheable answer: {@link plan} and its `complete` around one `next`.
 */
export async function fetchThrough(
  state: CacheState,
  request: CacheRequest,
  next: (sent: CacheRequest) => Promise<Response>,
): Promise<Response> {
  const planned = await plan(state, request);
  if (planned.hit) return planned.hit;
  return planned.complete(await next(planned.sent));
}

/**
 * The shared tier's entry for `key`, kept in this process too; undefined on a miss, any Redis fault, or an entry a
 * shared cache must not serve. Nothing read from Redis is taken at its word: freshness is worked out again from the
 * (signed) headers under this cache's own cap, and a receipt time more than a minute in the future is a miss.
 */
async function sharedLookup(state: CacheState, key: string, request: CacheRequest): Promise<CacheEntry | undefined> {
  if (!state.shared || !sharable(request)) return undefined;
  const read = await (await state.shared).get(key);
  if (!read || !shareableAnswer(read.headers) || varyKeyOf(request, read.varyNames) !== read.varyKey) return undefined;
  if (/[/+]json\b/i.test(read.headers.get('content-type') ?? '') && !parsesAsJson(read.body)) return undefined;
  if (read.body.byteLength > MAX_SHARED_BODY_BYTES) return undefined;
  // A receipt time in the future is another clock's, or a lie: a minute of skew is taken as now, more is a miss.
  if (read.receivedAt > state.now() + MAX_CLOCK_SKEW_MS) return undefined;
  const receivedAt = Math.min(read.receivedAt, state.now());
  const entry = { ...read, receivedAt, freshForMs: Math.min(freshnessMs(read.headers, true), state.maxFreshnessMs) };
  // This process's copy is fresh by its own rules (a private cache ignores `s-maxage`).
  keep(state, key, {
    ...entry,
    freshForMs: Math.min(freshnessMs(read.headers, state.sharedMaxAge), state.maxFreshnessMs),
  });
  return entry;
}

/** Whether a shared cache may keep an answer with these headers: not `private`, not `no-store`, no `Set-Cookie`. */
function shareableAnswer(headers: Headers): boolean {
  const directives = parseCacheControl(headers.get('cache-control'));
  return !directives.has('private') && !directives.has('no-store') && !headers.has('set-cookie');
}

/**
 * Writes `entry` to the shared tier when a shared cache may keep it (fire and forget). After a 304 (`revalidated`)
 * whose headers now forbid sharing, the shared entry is dropped instead of rewritten.
 */
function sharedWrite(
  state: CacheState,
  key: string,
  request: CacheRequest,
  entry: CacheEntry,
  revalidated = false,
): void {
  const { shared } = state;
  if (!shared || !sharable(request)) return;
  if (!shareableAnswer(entry.headers) || entry.status !== 200) {
    if (revalidated) void shared.then((tier) => tier.delete(key));
    return;
  }
  if (entry.body.byteLength > MAX_SHARED_BODY_BYTES) return;
  const freshForMs = Math.min(freshnessMs(entry.headers, true), state.maxFreshnessMs);
  const ttl = Math.min(state.maxFreshnessMs, Math.max(freshForMs, hasValidators(entry.headers) ? 60_000 : 0));
  if (ttl > 0) void shared.then((tier) => tier.set(key, entry, ttl));
}

/**
 * Method + URL (credential query values masked) + a fingerprint of the unmasked URL and every header sent, so
 * requests that differ in any credential (header, decoded Basic parts, query value) never share an entry.
 */
function primaryKey(request: CacheRequest): string {
  const parts = [request.url];
  request.headers.forEach((value, name) => {
    if (!REQUEST_CACHE_DIRECTIVES.has(name)) parts.push(`${name}:${value}`);
  });
  return `GET ${redactUrl(request.url)} ${fingerprint(...parts)}`;
}

function lookup(state: CacheState, key: string, request: CacheRequest): CacheEntry | undefined {
  const entry = state.entries.get(key);
  if (!entry || varyKeyOf(request, entry.varyNames) !== entry.varyKey) return undefined;
  state.entries.delete(key);
  state.entries.set(key, entry);
  return entry;
}

/** Stores a cacheable answer (one with `Cache-Control` or validators); drops the entry of a `no-store` one. */
async function store(
  state: CacheState,
  key: string,
  request: CacheRequest,
  response: Response,
  readable: () => Response = () => response.clone(),
): Promise<CacheEntry | undefined> {
  const directives = parseCacheControl(response.headers.get('cache-control'));
  const varyNames = varyNamesOf(response.headers);
  const freshForMs = Math.min(freshnessMs(response.headers, state.sharedMaxAge), state.maxFreshnessMs);
  // An answer fresh only for a shared cache (`s-maxage`) is read for the shared tier, not kept in this process.
  const forSharedOnly =
    freshForMs === 0 &&
    !hasValidators(response.headers) &&
    state.shared !== undefined &&
    freshnessMs(response.headers, true) > 0;
  const cacheable =
    response.status === 200 &&
    !directives.has('no-store') &&
    !varyNames.includes('*') &&
    (freshForMs > 0 || hasValidators(response.headers) || forSharedOnly);
  if (!cacheable) {
    if (directives.has('no-store')) remove(state, key);
    return undefined;
  }
  // No more is read than could be kept. A body past that is not kept, and the entry it answers is dropped (as `keep`
  // drops it when a body is larger than the whole cache).
  const body = await readStorable(readable(), forSharedOnly ? MAX_SHARED_BODY_BYTES : state.maxBytes);
  if (!body) {
    if (!forSharedOnly) remove(state, key);
    return undefined;
  }
  // Only a body that parses is kept: a truncated or broken JSON answer must not be served again.
  if (/[/+]json\b/i.test(response.headers.get('content-type') ?? '') && !parsesAsJson(body)) return undefined;
  const entry: CacheEntry = {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
    body,
    receivedAt: state.now(),
    freshForMs,
    varyNames,
    varyKey: varyKeyOf(request, varyNames),
  };
  if (forSharedOnly) return entry;
  keep(state, key, entry);
  return state.entries.get(key);
}

/**
 * The body of `copy` when it is at most `maxBytes` (the most one entry may hold), else undefined: the read stops at
 * the cap and cancels `copy`'s body, so the answer the caller gets (the other branch of a clone) streams on from
 * there and the cache never holds more than it could keep, however large or endless the body. Any other failure to
 * read is thrown, as the caller's own read would meet it.
 */
async function readStorable(copy: Response, maxBytes: number): Promise<ArrayBuffer | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readBoundedBody(copy, maxBytes);
  } catch (error) {
    if (error instanceof ResponseTooLargeError) return undefined;
    throw error;
  }
  // Copied: a body in one chunk is the very chunk the caller's branch of a clone hands out, free to be written into.
  return bytes.slice().buffer;
}

/** Stores `entry` under `key` within the entry and byte bounds, least recently used out first. */
function keep(state: CacheState, key: string, entry: CacheEntry): void {
  remove(state, key);
  if (entry.body.byteLength > state.maxBytes) return;
  state.bytes += entry.body.byteLength;
  state.entries.set(key, entry);
  for (const oldest of state.entries.keys()) {
    if (state.entries.size <= state.maxEntries && state.bytes <= state.maxBytes) break;
    remove(state, oldest);
  }
}

function remove(state: CacheState, key: string): void {
  const entry = state.entries.get(key);
  if (!entry) return;
  state.bytes -= entry.body.byteLength;
  state.entries.delete(key);
}

/** Applies the headers of a 304 to the stored response and restarts its freshness clock. */
function refresh(state: CacheState, key: string, entry: CacheEntry, notModifiedHeaders: Headers): CacheEntry {
  const headers = new Headers(entry.headers);
  notModifiedHeaders.forEach((value, name) => {
    if (!NOT_UPDATED_BY_304.has(name)) headers.set(name, value);
  });
  const freshForMs = Math.min(freshnessMs(headers, state.sharedMaxAge), state.maxFreshnessMs);
  const refreshed: CacheEntry = { ...entry, headers, receivedAt: state.now(), freshForMs };
  if (parseCacheControl(headers.get('cache-control')).has('no-store')) remove(state, key);
  else state.entries.set(key, refreshed);
  return refreshed;
}

/**
 * RFC 9111 §3.5: a shared cache keeps no answer to a request that carried credentials: any header core counts as a
 * credential (`Authorization`, `Cookie`, `X-Api-Key`, `X-Auth-Token`, `Proxy-Authorization`, ...) or a credential
 * query parameter.
 */
function sharable(request: CacheRequest): boolean {
  let credentialed = false;
  request.headers.forEach((_value, name) => {
    if (isCredentialHeader(name)) credentialed = true;
  });
  if (credentialed) return false;
  const query = request.url.indexOf('?');
  if (query < 0) return true;
  for (const name of new URLSearchParams(request.url.slice(query + 1)).keys()) {
    if (isCredentialQueryParam(name)) return false;
  }
  return true;
}

function withValidators(request: CacheRequest, entry: CacheEntry): CacheRequest {
  const headers = new Headers(request.headers);
  const etag = entry.headers.get('etag');
  const lastModified = entry.headers.get('last-modified');
  if (etag) headers.set('if-none-match', etag);
  if (lastModified) headers.set('if-modified-since', lastModified);
  return { method: request.method, url: request.url, headers };
}

function parsesAsJson(body: ArrayBuffer): boolean {
  try {
    JSON.parse(new TextDecoder().decode(body));
    return true;
  } catch {
    return false;
  }
}

/** A new `Response` for every call, so callers can consume and mutate it freely. */
function responseFrom(entry: CacheEntry, how: 'hit' | 'revalidated'): Response {
  const headers = new Headers(entry.headers);
  headers.set(CACHE_STATUS_HEADER, how);
  return new Response(entry.body.slice(0), { status: entry.status, statusText: entry.statusText, headers });
}
