/**
 * A private (client-side) HTTP cache for GET requests: `Cache-Control` freshness, `ETag` / `Last-Modified`
 * revalidation, LRU eviction by entry count.
 */
import type { CacheEntry } from './cache-entry.js';
import { fingerprint } from './fingerprint.js';
import type { RedisCacheTier } from './http-cache-redis.js';
import type { Logger } from './logger.js';
import { redactUrl } from './redact-text.js';
import type { RedisClientLike } from './redis.js';
import { toRequest } from './request.js';

/** Response header telling how a response was served: `hit` (fresh copy) or `revalidated` (after a 304). */
export const CACHE_STATUS_HEADER = 'x-agent-apis-cache';

/** Entries kept unless configured otherwise. */
export const DEFAULT_CACHE_ENTRIES = 200;

/** Bytes of response bodies kept unless configured otherwise: 16 MiB. */
export const DEFAULT_CACHE_BYTES = 16 * 1024 * 1024;

/** Longest time a response is served without asking the server, whatever its `max-age`: 1 hour. */
export const DEFAULT_MAX_FRESHNESS_MS = 3_600_000;

/** Options of {@link HttpCache}. */
export interface HttpCacheOptions {
  /** Most entries kept; the least recently used is evicted first (default 200). */
  maxEntries?: number;
  /** Most bytes of bodies kept; least recently used entries are evicted first (default 16 MiB). */
  maxBytes?: number;
  /** Cap on the freshness a response's `max-age` grants, in ms (default 1 hour). */
  maxFreshnessMs?: number;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  /**
   * A second tier shared by every process using this Redis (node-redis v5 or later): a response one process
   * stored is served to the others under the same rules (freshness, validators, `Vary`). Only what a shared
   * cache may keep goes there (RFC 9111 §3.5: never `private`, never an answer to a request with credentials),
   * bodies up to 1 MiB, kept no longer than `maxFreshnessMs`. Redis faults leave the in-process tier alone.
   */
  shared?: { redis: RedisClientLike; logger: Logger } | undefined;
}

/** Largest body written to the shared tier. */
const MAX_SHARED_BODY_BYTES = 1024 * 1024;

/** What the cache needs of a request: method, URL and every header that is sent. */
export interface CacheRequest {
  method: string;
  url: string;
  headers: Headers;
}

export type { CacheEntry } from './cache-entry.js';

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

function hasValidators(headers: Headers): boolean {
  return headers.has('etag') || headers.has('last-modified');
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

/**
 * An in-memory LRU cache of GET responses. Use {@link HttpCache.wrap} to put it in front of a fetch (or pass it
 * as the `cache` of a client's transport). Requests sending `Cache-Control: no-store` bypass it, `no-cache` forces a
 * revalidation; requests with their own `If-None-Match`/`If-Modified-Since` pass through untouched.
 */
export class HttpCache {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #maxFreshnessMs: number;
  readonly #now: () => number;
  readonly #shared: Promise<RedisCacheTier> | undefined;
  #bytes = 0;

  /** An empty cache; throws a TypeError when `maxEntries` is not a positive integer. */
  constructor(options: HttpCacheOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_CACHE_ENTRIES;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new TypeError(`HttpCache maxEntries must be a positive integer, got ${String(options.maxEntries)}`);
    }
    this.#maxEntries = maxEntries;
    this.#maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.#maxFreshnessMs = options.maxFreshnessMs ?? DEFAULT_MAX_FRESHNESS_MS;
    this.#now = options.now ?? (() => Date.now());
    const { shared } = options;
    // Loaded only when asked for: bundles without a shared tier do not carry it.
    this.#shared =
      shared &&
      import('./http-cache-redis.js').then(
        (module) => new module.RedisCacheTier(shared.redis, shared.logger, this.#now),
      );
  }

  /** Number of stored responses. */
  get size(): number {
    return this.#entries.size;
  }

  /** Drops every stored response. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Bytes of stored bodies. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Whether {@link HttpCache.fetchThrough} may read the body of `response` (to store it): only a 200 with
   * `Cache-Control` or validators can be stored. Of any other answer the cache reads status and headers only.
   */
  mayStore(response: Pick<Response, 'status' | 'headers'>): boolean {
    return response.status === 200 && (response.headers.has('cache-control') || hasValidators(response.headers));
  }

  /** A fetch that answers GETs from this cache when it can and stores cacheable responses of `next`. */
  wrap(next: typeof fetch): typeof fetch {
    return (input, init) => {
      const request = toRequest(input, init);
      return this.fetchThrough(request, (sent) =>
        next(sent === request ? request : new Request(request, { headers: sent.headers })),
      );
    };
  }

  /**
   * Answers `request` from the cache when it can, else through `next` (with validators added when revalidating),
   * storing a cacheable answer. `request.headers` must be every header that will be sent: keys and `Vary` see them.
   */
  async fetchThrough(request: CacheRequest, next: (sent: CacheRequest) => Promise<Response>): Promise<Response> {
    const method = request.method.toUpperCase();
    if (method !== 'GET') {
      const response = await next(request);
      if (UNSAFE_METHODS.has(method) && response.status < 400) {
        const prefix = `GET ${redactUrl(request.url)} `;
        for (const key of [...this.#entries.keys()]) if (key.startsWith(prefix)) this.#delete(key);
      }
      return response;
    }
    const cacheControl = request.headers.get('cache-control');
    const requestDirectives = cacheControl ? parseCacheControl(cacheControl) : NO_DIRECTIVES;
    const conditionalByCaller = request.headers.has('if-none-match') || request.headers.has('if-modified-since');
    if (requestDirectives.has('no-store') || conditionalByCaller) return next(request);

    // An empty cache with no shared tier holds nothing to look up: the key is worked out only when needed.
    let key: string | undefined;
    const keyOf = (): string => (key ??= this.#primaryKey(request));
    const entry =
      this.#entries.size > 0 || this.#shared
        ? (this.#lookup(keyOf(), request) ?? (await this.#sharedLookup(keyOf(), request)))
        : undefined;
    if (entry && !requestDirectives.has('no-cache') && this.#now() - entry.receivedAt < entry.freshForMs) {
      return responseFrom(entry, 'hit');
    }
    const sent = entry && hasValidators(entry.headers) ? withValidators(request, entry) : request;
    const response = await next(sent);
    if (entry && response.status === 304) {
      const refreshed = this.#refresh(keyOf(), entry, response.headers);
      this.#sharedWrite(keyOf(), request, refreshed);
      return responseFrom(refreshed, 'revalidated');
    }
    // Without Cache-Control or validators an answer is neither stored nor a reason to drop one: nothing to wait for.
    if (!response.headers.has('cache-control') && !hasValidators(response.headers)) return response;
    const stored = await this.#store(keyOf, request, response);
    if (stored) this.#sharedWrite(keyOf(), request, stored);
    return response;
  }

  /** The shared tier's entry for `key`, kept in this process too; undefined on a miss or any Redis fault. */
  async #sharedLookup(key: string, request: CacheRequest): Promise<CacheEntry | undefined> {
    if (!this.#shared || !sharable(request)) return undefined;
    const entry = await (await this.#shared).get(key);
    if (!entry || varyKeyOf(request, entry.varyNames) !== entry.varyKey) return undefined;
    if (/[/+]json\b/i.test(entry.headers.get('content-type') ?? '') && !parsesAsJson(entry.body)) return undefined;
    this.#keep(key, entry);
    return this.#entries.get(key);
  }

  /** Writes `entry` to the shared tier when a shared cache may keep it (fire and forget). */
  #sharedWrite(key: string, request: CacheRequest, entry: CacheEntry): void {
    if (!this.#shared || !sharable(request)) return;
    if (parseCacheControl(entry.headers.get('cache-control')).has('private')) return;
    if (entry.body.byteLength > MAX_SHARED_BODY_BYTES) return;
    const ttl = Math.min(this.#maxFreshnessMs, Math.max(entry.freshForMs, hasValidators(entry.headers) ? 60_000 : 0));
    if (ttl > 0) void this.#shared.then((tier) => tier.set(key, entry, ttl));
  }

  /**
   * Method + URL (credential query values masked) + a fingerprint of the unmasked URL and every header sent, so
   * requests that differ in any credential (header, decoded Basic parts, query value) never share an entry.
   */
  #primaryKey(request: CacheRequest): string {
    const parts = [request.url];
    request.headers.forEach((value, name) => {
      if (!REQUEST_CACHE_DIRECTIVES.has(name)) parts.push(`${name}:${value}`);
    });
    return `GET ${redactUrl(request.url)} ${fingerprint(...parts)}`;
  }

  #lookup(key: string, request: CacheRequest): CacheEntry | undefined {
    const entry = this.#entries.get(key);
    if (!entry || varyKeyOf(request, entry.varyNames) !== entry.varyKey) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  async #store(keyOf: () => string, request: CacheRequest, response: Response): Promise<CacheEntry | undefined> {
    // Without Cache-Control or validators an answer is neither stored nor a reason to drop one.
    if (!response.headers.has('cache-control') && !hasValidators(response.headers)) return undefined;
    const key = keyOf();
    const directives = parseCacheControl(response.headers.get('cache-control'));
    const varyNames = varyNamesOf(response.headers);
    const freshForMs = Math.min(freshnessMs(response.headers), this.#maxFreshnessMs);
    const cacheable =
      response.status === 200 &&
      !directives.has('no-store') &&
      !varyNames.includes('*') &&
      (freshForMs > 0 || hasValidators(response.headers));
    if (!cacheable) {
      if (directives.has('no-store')) this.#delete(key);
      return undefined;
    }
    const body = await response.clone().arrayBuffer();
    // Only a body that parses is kept: a truncated or broken JSON answer must not be served again.
    if (/[/+]json\b/i.test(response.headers.get('content-type') ?? '') && !parsesAsJson(body)) return undefined;
    const entry: CacheEntry = {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers(response.headers),
      body,
      receivedAt: this.#now(),
      freshForMs,
      varyNames,
      varyKey: varyKeyOf(request, varyNames),
    };
    this.#keep(key, entry);
    return this.#entries.get(key);
  }

  /** Stores `entry` under `key` within the entry and byte bounds, least recently used out first. */
  #keep(key: string, entry: CacheEntry): void {
    this.#delete(key);
    if (entry.body.byteLength > this.#maxBytes) return;
    this.#bytes += entry.body.byteLength;
    this.#entries.set(key, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.#delete(oldest);
    }
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.body.byteLength;
    this.#entries.delete(key);
  }

  /** Applies the headers of a 304 to the stored response and restarts its freshness clock. */
  #refresh(key: string, entry: CacheEntry, notModifiedHeaders: Headers): CacheEntry {
    const headers = new Headers(entry.headers);
    notModifiedHeaders.forEach((value, name) => {
      if (!NOT_UPDATED_BY_304.has(name)) headers.set(name, value);
    });
    const freshForMs = Math.min(freshnessMs(headers), this.#maxFreshnessMs);
    const refreshed: CacheEntry = { ...entry, headers, receivedAt: this.#now(), freshForMs };
    if (parseCacheControl(headers.get('cache-control')).has('no-store')) this.#delete(key);
    else this.#entries.set(key, refreshed);
    return refreshed;
  }
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
