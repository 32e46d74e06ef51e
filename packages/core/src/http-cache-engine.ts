/**
 * What an {@link HttpCache} does with a request: `Cache-Control` freshness, `ETag` / `Last-Modified`
 * revalidation, `Vary`, LRU eviction, the shared tier. Loaded by the cache at its first request, so code that
 * imports the class (every directory import does) carries none of it until a call goes through a cache.
 */
import { type CacheEntry, type CachePlan, type CacheRequest, type CacheState, hasValidators } from './cache-entry.js';
import { fingerprint } from './fingerprint.js';
import { redactUrl } from './redact-text.js';

/** Response header telling how a response was served: `hit` (fresh copy) or `revalidated` (after a 304). */
export const CACHE_STATUS_HEADER = 'x-agent-apis-cache';

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

/** How long a response may be reused without revalidation, in ms (`max-age` minus `Age`; 0 if `no-cache`). */
function freshnessMs(headers: Headers): number {
  const directives = parseCacheControl(headers.get('cache-control'));
  if (directives.has('no-cache')) return 0;
  const maxAge = Number(directives.get('max-age'));
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
  if (local || !state.shared) return planFor(state, request, key, local, requestDirectives);
  return sharedLookup(state, key, request).then((shared) => planFor(state, request, key, shared, requestDirectives));
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
        sharedWrite(state, key, request, refreshed);
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

/** The shared tier's entry for `key`, kept in this process too; undefined on a miss or any Redis fault. */
async function sharedLookup(state: CacheState, key: string, request: CacheRequest): Promise<CacheEntry | undefined> {
  if (!state.shared || !sharable(request)) return undefined;
  const entry = await (await state.shared).get(key);
  if (!entry || varyKeyOf(request, entry.varyNames) !== entry.varyKey) return undefined;
  if (/[/+]json\b/i.test(entry.headers.get('content-type') ?? '') && !parsesAsJson(entry.body)) return undefined;
  keep(state, key, entry);
  return state.entries.get(key);
}

/** Writes `entry` to the shared tier when a shared cache may keep it (fire and forget). */
function sharedWrite(state: CacheState, key: string, request: CacheRequest, entry: CacheEntry): void {
  const { shared } = state;
  if (!shared || !sharable(request)) return;
  if (parseCacheControl(entry.headers.get('cache-control')).has('private')) return;
  if (entry.body.byteLength > MAX_SHARED_BODY_BYTES) return;
  const ttl = Math.min(state.maxFreshnessMs, Math.max(entry.freshForMs, hasValidators(entry.headers) ? 60_000 : 0));
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
  const freshForMs = Math.min(freshnessMs(response.headers), state.maxFreshnessMs);
  const cacheable =
    response.status === 200 &&
    !directives.has('no-store') &&
    !varyNames.includes('*') &&
    (freshForMs > 0 || hasValidators(response.headers));
  if (!cacheable) {
    if (directives.has('no-store')) remove(state, key);
    return undefined;
  }
  const body = await readable().arrayBuffer();
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
  keep(state, key, entry);
  return state.entries.get(key);
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
  const freshForMs = Math.min(freshnessMs(headers), state.maxFreshnessMs);
  const refreshed: CacheEntry = { ...entry, headers, receivedAt: state.now(), freshForMs };
  if (parseCacheControl(headers.get('cache-control')).has('no-store')) remove(state, key);
  else state.entries.set(key, refreshed);
  return refreshed;
}

/** RFC 9111 §3.5: a shared cache keeps no answer to a request that carried credentials. */
function sharable(request: CacheRequest): boolean {
  return !request.headers.has('authorization') && !request.headers.has('cookie');
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
