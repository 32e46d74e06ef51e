/**
 * `@agent-apis/core/redirect`: the one redirect rule of the clients (which statuses redirect, where to, with which
 * method; it lives with the transport's use of it, `internal/call/redirect.ts`), the one list of credential headers,
 * which never follow a hop to another origin, and the URL masking of their errors.
 */

export { isCredentialHeader, redactUrl } from './internal/call/redact-text.js';
export { type RedirectHop, redirectHop } from './internal/call/redirect.js';
