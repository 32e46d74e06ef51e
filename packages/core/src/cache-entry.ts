/** The shape of one stored HTTP response, shared by the in-process cache and its Redis tier. */
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
