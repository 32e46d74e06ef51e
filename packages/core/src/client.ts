/**
 * `@agent-apis/core/client`: what a service client needs before its first call: the client class and the checks of
 * its settings, the operation binding, pagination, environment reading, and the Redis client check of the options
 * that take one. Nothing this entry imports reaches the call path (`internal/call/send-call.ts` and what it loads),
 * so a bundler that keeps every module an entry reaches (esbuild does, even when only a dynamic `import()` uses it)
 * still leaves the transport, redaction of values and retries to the first call. The errors are the `./errors` entry.
 */

export { ApiClient, type LazyTransportOptions, type ServiceClientConfig } from './api-client.js';
export { ApiPromise, mapApiPromise, type WithResponse } from './api-promise.js';
export { onAbort, raceWithSignal } from './internal/call/abort.js';
export { checkBaseUrl, checkCredentials, checkedHeaders } from './internal/call/client-checks.js';
export { DEFAULT_TIMEOUT_MS, LOG_ENV_VAR, readEnv } from './internal/call/env.js';
export { assertRedisClient, type RedisClientLike } from './internal/fleet/redis-client.js';
export { bindOperations, routeOf, sendOperation } from './operations.js';
export { offsetCursor, pageNumberListing, paginate } from './pagination.js';
