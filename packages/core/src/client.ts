/**
 * `@agent-apis/core/client`: what a service client needs before its first call (the client class, the operation
 * binding, pagination, the errors it throws without a transport, environment reading). Nothing this
 * entry imports reaches the call path, so a bundler that keeps every module an entry reaches (esbuild does, even
 * when only a dynamic `import()` uses it) still leaves the transport, redaction and retries to the first call. What
 * only trust's guard needs at hand is apart, so that clients without a guard skip it: the redirect rule
 * (`@agent-apis/core/redirect`) and the masking of a URL (`@agent-apis/core/redact-text`).
 */

export { onAbort, raceWithSignal } from './abort.js';
export { ApiClient, checkBaseUrl, type LazyTransportOptions, type ServiceClientConfig } from './api-client.js';
export { ApiPromise, mapApiPromise, type WithResponse } from './api-promise.js';
export { LOG_ENV_VAR, readEnv } from './env.js';
export {
  AgentApiError,
  APIUserAbortError,
  ConfigurationError,
  InvalidBaseUrlError,
  MissingCredentialsError,
  RequestValidationError,
  ResponseParseError,
} from './input-errors.js';
export { bindOperations, pageNumberListing, routeOf, sendOperation } from './operations.js';
export { offsetCursor, paginate } from './pagination.js';
export { assertRedisClient } from './redis-client.js';
export { ResponseValidationError } from './response-validation.js';
