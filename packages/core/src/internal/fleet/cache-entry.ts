/** The shapes shared by the HTTP cache, its engine and its Redis tier: a stored response and the cache's state. */

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

/** What the cache needs of a request: method, URL and every header that is sent. */
export interface CacheRequest {
  method: string;
  url: string;
  headers: Headers;
}

/**
 * What the cache does with one request: answer it from a fresh entry (`hit`), or have `sent` sent (with validators
 * when revalidating) and hand its answer to `complete`.
 */
export interface CachePlan {
  /** A fresh copy of the answer: nothing is sent. */
  hit?: Response | undefined;
  /** The request to send when there is no hit: every header that will be sent. */
  sent: CacheRequest;
  /**
   * The answer to `sent` as the caller gets it: the stored one refreshed after a 304, else `response` itself (kept
   * first when cacheable). Synchronous unless something is stored; `readable` gives a copy whose body can be read
   * (the stored bytes), asked for only when the answer is kept, once, and read no further than one entry may hold
   * (`maxBytes`; past that the copy is cancelled and nothing is stored). Default: a clone of `response`.
   */
  complete(response: Response, readable?: () => Response): Response | Promise<Response>;
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
