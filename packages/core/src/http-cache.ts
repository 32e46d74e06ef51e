/**
 * A private (client-side) HTTP cache for GET requests: `Cache-Control` freshness, `ETag` / `Last-Modified`
 * revalidation, LRU eviction by entry count and bytes. The class holds the stored responses and the limits; what
 * it does with a request is its engine (`http-cache-engine.ts`), loaded at its first request.
 */

import { ConfigurationError } from './internal/call/errors.js';
import type { Logger } from './internal/call/logger.js';
import { toRequest } from './internal/call/to-request.js';
import type { CachePlan, CacheRequest, CacheState, SharedCacheTier } from './internal/fleet/cache-entry.js';
import { MIN_FLEET_SECRET_LENGTH } from './internal/fleet/cache-entry.js';
import type * as Engine from './internal/fleet/http-cache-engine.js';
import type { RedisClientLike } from './internal/fleet/redis.js';

export type { CacheEntry, CachePlan, CacheRequest } from './internal/fleet/cache-entry.js';

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
  /**
   * Most bytes of bodies kept; least recently used entries are evicted first (default 16 MiB). A body larger than
   * this is not kept, and the cache reads no more of it than this: the answer is handed on streaming.
   */
  maxBytes?: number;
  /** Cap on the freshness a response's `max-age` grants, in ms (default 1 hour). */
  maxFreshnessMs?: number;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  /**
   * Honour `s-maxage` in this process too, as a shared cache would (default false: a private cache ignores it). For
   * a cache in front of an API that is keyless and public (the directory), whose answers are the same for everyone.
   */
  sharedMaxAge?: boolean | undefined;
  /**
   * A second tier shared by every process using this Redis (node-redis v5 or later): a response one process
   * stored is served to the others under the rules of a shared cache (RFC 9111: `s-maxage` before `max-age`,
   * validators, `Vary`). Only what a shared cache may keep goes there: never an answer to a request carrying
   * credentials (a header core counts as one, or a credential query parameter), never `private`, `no-store` or
   * `Set-Cookie`; bodies up to 1 MiB, kept no longer than `maxFreshnessMs`. Redis is not trusted: entries are
   * signed with `secret` (at least 16 characters, the same in every process of the fleet, never stored in Redis),
   * read with a size bound, and re-capped to this cache's limits; one that fails a check is a miss. Redis faults
   * leave the in-process tier alone, and so does a tier whose module cannot load (one warning).
   */
  shared?: { redis: RedisClientLike; logger: Logger; secret: string } | undefined;
}

/** The shared tier of a cache whose tier could not load: every lookup a miss, every write dropped. */
const NO_SHARED_TIER: SharedCacheTier = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

/**
 * An in-memory LRU cache of GET responses. Use {@link HttpCache.wrap} to put it in front of a fetch (or pass it
 * as the `cache` of a client's transport). Requests sending `Cache-Control: no-store` bypass it, `no-cache` forces a
 * revalidation; requests with their own `If-None-Match`/`If-Modified-Since` pass through untouched.
 */
export class HttpCache {
  readonly #state: CacheState;
  #engine: typeof Engine | undefined;
  #loading: Promise<typeof Engine> | undefined;

  /** An empty cache; throws a TypeError when `maxEntries` is not a positive integer. */
  constructor(options: HttpCacheOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_CACHE_ENTRIES;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new TypeError(`HttpCache maxEntries must be a positive integer, got ${String(options.maxEntries)}`);
    }
    const now = options.now ?? (() => Date.now());
    const { shared } = options;
    if (shared && !(typeof shared.secret === 'string' && shared.secret.length >= MIN_FLEET_SECRET_LENGTH)) {
      throw new ConfigurationError(
        `HttpCache shared.secret must be a string of at least ${MIN_FLEET_SECRET_LENGTH} characters`,
      );
    }
    this.#state = {
      entries: new Map(),
      bytes: 0,
      maxEntries,
      maxBytes: options.maxBytes ?? DEFAULT_CACHE_BYTES,
      maxFreshnessMs: options.maxFreshnessMs ?? DEFAULT_MAX_FRESHNESS_MS,
      sharedMaxAge: options.sharedMaxAge === true,
      now,
      // Loaded only when asked for: bundles without a shared tier do not carry it. A tier that cannot load is left
      // out with one warning, as a Redis fault would be: the in-process tier goes on alone.
      shared:
        shared &&
        import('./internal/fleet/http-cache-redis.js').then(
          (module) => new module.RedisCacheTier(shared.redis, shared.logger, now, shared.secret),
          (cause: unknown) => {
            shared.logger.warn(
              `HttpCache could not load its shared tier, so it caches in this process only: ${cause instanceof Error ? cause.message : String(cause)}`,
            );
            return NO_SHARED_TIER;
          },
        ),
    };
  }

  /** Number of stored responses. */
  get size(): number {
    return this.#state.entries.size;
  }

  /** Drops every stored response. */
  clear(): void {
    this.#state.entries.clear();
    this.#state.bytes = 0;
  }

  /** Bytes of stored bodies. */
  get bytes(): number {
    return this.#state.bytes;
  }

  /**
   * A fetch that answers GETs from this cache when it can and stores cacheable responses of `next`. A cacheable
   * answer is returned once the cache has read its copy of the body: the whole body when it fits in `maxBytes`, else
   * no more than that (the copy is dropped, nothing is stored, and the caller's body streams on).
   */
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
   * The first request loads the cache's engine unless {@link HttpCache.load} did; a failed load is a
   * `ConfigurationError`, tried again at the next request (a browser may keep refusing a chunk it failed to fetch).
   */
  fetchThrough(request: CacheRequest, next: (sent: CacheRequest) => Promise<Response>): Promise<Response> {
    const engine = this.#engine;
    if (engine) return engine.fetchThrough(this.#state, request, next);
    return this.#load().then((loaded) => loaded.fetchThrough(this.#state, request, next));
  }

  /**
   * What the cache does with `request`, as two steps around one send: a `hit`, or the request to send and the
   * `complete` step its answer goes through. {@link HttpCache.fetchThrough} is the same around a `next`; the
   * transport takes this form, which adds no promise when nothing is looked up in a shared tier or stored.
   */
  plan(request: CacheRequest): CachePlan | Promise<CachePlan> {
    const engine = this.#engine;
    if (engine) return engine.plan(this.#state, request);
    return this.#load().then((loaded) => loaded.plan(this.#state, request));
  }

  /**
   * Loads the engine now rather than at the first request. A client calls it with its call path, so that the wait
   * counts against its first call's signal and timeout; a failed load rejects with a `ConfigurationError`.
   */
  async load(): Promise<void> {
    await this.#load();
  }

  #load(): Promise<typeof Engine> {
    this.#loading ??= import('./internal/fleet/http-cache-engine.js').then(
      (engine) => {
        this.#engine = engine;
        return engine;
      },
      (cause: unknown) => {
        this.#loading = undefined;
        throw new ConfigurationError('HttpCache could not load its engine module', { cause });
      },
    );
    return this.#loading;
  }
}
