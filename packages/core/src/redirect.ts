/**
 * `@agent-apis/core/redirect`: the redirect rule of the transport and the URL masking of its errors, for a fetch
 * wrapper that follows redirects itself (trust's `guardedFetch` decides every hop). An entry of its own so that a
 * client which loads it at import does not load the call path with it.
 */

export { redactUrl } from './internal/call/redact-text.js';
export { type RedirectHop, redirectHop } from './internal/call/redirect.js';
