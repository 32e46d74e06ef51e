/**
 * Every error class the clients throw, listed in one place (the root entry, `@agent-apis/core`, exports them; each
 * service package re-exports their names). The classes are defined in two modules by when a client needs them, so
 * that a bundle loads at import only what is thrown before anything is sent:
 * - `internal/call/request-errors.ts`: the base {@link AgentApiError} and the errors raised without an answer (bad
 *   input, missing credentials, a malformed base URL, an option that cannot work, a caller's abort, a body that does
 *   not parse, Redis failing);
 * - `internal/call/answer-errors.ts`: the errors of answers (one class per common status), of connections and
 *   timeouts, of bodies too large or not matching their schema, and the store's rate-limit ban.
 */

export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorResponse,
  errorClassForStatus,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitBanError,
  RateLimitError,
  type RequestContext,
  type RequestDescription,
  type ResponseIssue,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
} from './internal/call/answer-errors.js';
export {
  AgentApiError,
  APIUserAbortError,
  ConfigurationError,
  InvalidBaseUrlError,
  type MissingCredentials,
  MissingCredentialsError,
  RedisUnavailableError,
  RequestValidationError,
  type RequestValidationProblem,
  ResponseParseError,
} from './internal/call/request-errors.js';
