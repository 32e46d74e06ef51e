/**
 * What the transport asks of an HTTP cache it is handed (already loaded): a plan for one request. The cache itself
 * (`HttpCache`, its engine in `../fleet/`) implements it; the call path never imports the cache.
 */

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

/** A cache the transport can consult: `HttpCache` is one. */
export interface PlanningCache {
  plan(request: CacheRequest): CachePlan | Promise<CachePlan>;
  /** Loads what the cache needs before its first request (`HttpCache`'s engine), with the call path. */
  load?(): Promise<void>;
}
