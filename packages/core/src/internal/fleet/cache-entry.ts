/** The shapes shared by the HTTP cache, its engine and its Redis tier: a stored response and the cache's state. */

import type { CachePlan, CacheRequest } from '../call/cache-plan.js';

export type { CachePlan, CacheRequest };

/** Response header telling how a response was served: `hit` (fresh copy) or `revalidated` (after a 304). */
/** Shortest fleet secret a shared cache tier accepts. */
export const MIN_FLEET_SECRET_LENGTH = 16;

export const CACHE_STATUS_HEADER = 'x-agent-apis-cache';

/** A stored response. */
export interface CacheEntry {
  status: number;
  statusText: string;
  headers: Headers;
  body: ArrayBuffer;
  /** When the response was received or last revalidated. */
  receivedAt: number;
  /** How long after `receivedAt` the entry may be served without asking the server. */
  freshForMs: number;
  /** Request header names listed in `Vary`. */
  varyNames: string[];
  /** Fingerprint of the request's values for `varyNames` when stored. */
  varyKey: string;
}

/** The second tier a fleet shares (`RedisCacheTier`), as the engine uses it. */
export interface SharedCacheTier {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** One `HttpCache`'s stored responses and limits, which its engine reads and updates. */
export interface CacheState {
  readonly entries: Map<string, CacheEntry>;
  /** Bytes of the stored bodies. */
  bytes: number;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxFreshnessMs: number;
  /** Whether this process's copies honour `s-maxage` too (a cache in front of a keyless, public API). */
  readonly sharedMaxAge: boolean;
  readonly now: () => number;
  readonly shared: Promise<SharedCacheTier> | undefined;
}

/** Whether a response carries a validator (`ETag` or `Last-Modified`) a revalidation can send back. */
export function hasValidators(headers: Headers): boolean {
  return headers.has('etag') || headers.has('last-modified');
}
