/**
 * `@agent-apis/core/call`: the parts of the call path a sibling package reuses, loaded with (or after) a client's
 * first call: the transport and its types, the one bounded reader of bodies, the building of errors from failed
 * answers, redaction, the logger, the limits that hold unless options say otherwise, the retry policy and timers.
 * Never imported by `./client`: a client loads this at its first call, the MCP tool clients when they load.
 */

export { onAbort } from './internal/call/abort.js';
export { type BoundedBytes, boundedBytes, boundedResponse, readBoundedBody } from './internal/call/body-reader.js';
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, readEnv } from './internal/call/env.js';
export { apiErrorFromResponse, createRequestContext } from './internal/call/error-response.js';
export {
  findViolation,
  findViolations,
  type JsonSchema,
  type JsonType,
  patternRisk,
  unsupportedKeywords,
  VALUE_KEYWORDS,
  type Violation,
} from './internal/call/json-schema.js';
export {
  describeRequest,
  isCredentialHeader,
  isCredentialQueryParam,
  MIN_SECRET_LENGTH,
  REDACTED,
  type RedactValueOptions,
  redactError,
  redactHeaders,
  redactText,
  redactUrl,
  redactValue,
  secretsFromRequest,
} from './internal/call/redact.js';
export {
  backoffDelayMs,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  IDEMPOTENT_METHODS,
  isIdempotentMethod,
  RETRYABLE_STATUSES,
  type RetryDecision,
  type RetryPolicy,
  type RetryQuestion,
  type RetryTrigger,
} from './internal/call/retry.js';
export { retryAfterMs } from './internal/call/retry-after.js';
export { type Sleep, sleep, startDeadline, timerDelay } from './internal/call/timers.js';
export {
  type AttemptContext,
  type BufferedResponse,
  bufferedToResponse,
  type CreateFetchOptions,
  createTransport,
  type RequestHead,
  type RetryEvent,
  type Transport,
  type TransportCall,
  type TransportHooks,
} from './internal/call/transport.js';
export {
  createLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  parseLogLevel,
  resolveLogLevel,
} from './logger.js';
