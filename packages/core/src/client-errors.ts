/**
 * The errors users of a service client catch, as one module: each service package re-exports it whole
 * (`export * from '@agent-apis/core/errors'`), so every client exposes the same classes under the same names.
 */
export {
  AgentApiError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  InvalidBaseUrlError,
  MissingCredentialsError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitBanError,
  RateLimitError,
  RequestValidationError,
  ResponseTooLargeError,
  UnprocessableEntityError,
} from './errors.js';
export { type ResponseIssue, ResponseParseError, ResponseValidationError } from './response-validation.js';
