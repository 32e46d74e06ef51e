/**
 * `@agent-apis/core/service`: what a sibling package builds a client from, loaded with it at import: the base client
 * and the seam it sends through (`ApiClient`, which loads the call path at its first call), the binding of the
 * generated rows (`bindOperations`, `sendOperation`), the checks of a client's settings, pagination, the redirect rule
 * and the credential-header list, and the Redis client check of the options that take one. Nothing this entry imports
 * reaches the call path, so a bundler that keeps every module an entry reaches (esbuild) still leaves the transport,
 * redaction of values and retries to the first call.
 */

export { ApiClient, type LazyTransportOptions, type ServiceClientConfig } from './api-client.js';
export { type BoundOperations, bindOperations, mapApiPromise, sendOperation } from './api-promise.js';
export { onAbort, raceWithSignal } from './internal/call/abort.js';
export { checkBaseUrl, checkCredentials, checkedHeaders } from './internal/call/client-checks.js';
export { DEFAULT_TIMEOUT_MS, readEnv } from './internal/call/env.js';
export { isCredentialHeader, redactText, redactUrl } from './internal/call/redact-text.js';
export { type RedirectHop, redirectHop } from './internal/call/redirect.js';
export { MIN_FLEET_SECRET_LENGTH } from './internal/fleet/cache-entry.js';
export { assertRedisClient } from './internal/fleet/redis-client.js';
export type * from './manifest.js';
export { routeOf } from './operations.js';
export { offsetCursor, pageNumberListing, paginate } from './pagination.js';
export { VERSION } from './version.js';
