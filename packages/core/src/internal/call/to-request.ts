/**
 * Normalisation of `fetch` arguments.
 */

/**
 * The `Request` that `fetch(input, init)` would send. A `Request` passed alone is returned as is; otherwise a new
 * one is built, from a clone when `input` is a `Request`, so the caller's request body is never consumed.
 */
export function toRequest(input: RequestInfo | URL, init?: RequestInit): Request {
  if (input instanceof Request) return init === undefined ? input : new Request(input.clone(), init);
  return new Request(input, init);
}
