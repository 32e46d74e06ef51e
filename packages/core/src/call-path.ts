/**
 * What a client loads at its first call: the input check, what inputs become on the wire, and the transport (built
 * from the client's options). One module, so that bundlers that split
 * code put both in one chunk, fetched once.
 */
export { callHeaders, expandPath, parseBuffered, serializeQuery } from './call-request.js';
export { clientFetchOptions } from './client-options.js';
export { createTransport } from './fetch.js';
export { validateClientLimits, validateOperationInput, validateRequestOptions } from './input-validation.js';
