/**
 * What a client loads at its first call: the input check, what inputs become on the wire, and the transport (built
 * from the client's options). One module, so that bundlers that split
 * code put both in one chunk, fetched once.
 */
import { type CreateFetchOptions, createTransport, type Transport } from './fetch.js';

export { callHeaders, expandPath, parseBuffered, serializeQuery } from './call-request.js';
export { clientFetchOptions } from './client-options.js';
export { validateClientLimits, validateOperationInput, validateRequestOptions } from './input-validation.js';
export { refusePlainHttp } from './plain-http.js';

/**
 * The transport, built once what it needs has loaded: the engine of its `HttpCache` (a cache of the caller's own
 * making may have nothing to load).
 */
export async function readyTransport(options: CreateFetchOptions): Promise<Transport> {
  const { cache } = options;
  if (cache && typeof cache.load === 'function') await cache.load();
  return createTransport(options);
}
