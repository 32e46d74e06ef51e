/**
 * @agent-apis/trust: client of the Entropy0 trust-decision API, for agents that check a domain before they
 * fetch from it.
 */

export type { ApiPromise, Logger, LogLevel, RequestOptions, WithResponse } from '@agent-apis/core';
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
  type ErrorResponse,
  errorClassForStatus,
  InternalServerError,
  InvalidBaseUrlError,
  LOG_ENV_VAR,
  type MissingCredentials,
  MissingCredentialsError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitBanError,
  RateLimitError,
  RedisUnavailableError,
  type RequestContext,
  type RequestDescription,
  RequestValidationError,
  type RequestValidationProblem,
  type ResponseIssue,
  ResponseParseError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '@agent-apis/core';
export {
  API_KEY_ENV,
  API_KEY_ENV_VAR,
  BASE_URL_ENV,
  BASE_URL_ENV_VAR,
  createTrustClient,
  DEFAULT_BASE_URL,
  LOG_LEVEL_ENV,
  type TrustApi,
  TrustClient,
  type TrustClientOptions,
} from './client.js';
export {
  DEFAULT_INTERACTION,
  DEFAULT_POLICY,
  type DecideContext,
  type DecideInput,
  type TargetInput,
} from './decide-request.js';
export { TrustDecision } from './decision.js';
export * from './gen/api.gen.js';
export { type OperationId, operations } from './gen/operations.gen.js';
export type * from './gen/types.gen.js';
export {
  type GuardContext,
  type GuardedFetchOptions,
  type GuardOptions,
  TrustActionError,
  TrustDeniedError,
  TrustEscalationRequiredError,
  TrustSandboxRequiredError,
  TrustUnavailableError,
} from './guard.js';
