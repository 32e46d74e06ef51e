/**
 * The errors of a call under way, loaded with the call path at a client's first call (not at import, so they cost
 * nothing until then): {@link APIError} and one class per common status with the status table, connection errors and
 * timeouts, bodies that do not parse, are too large or do not match their schema, the store's rate-limit ban, and
 * Redis failing. Users import them from the face, `src/errors.ts`.
 *
 * Each constructor only stores what it is given and words its message; the call path (`error-response.ts`) reads a
 * failed answer, masks it and picks the class before building one. Every error carries only redacted data.
 */

import { AgentApiError } from './errors.js';

/**
 * A Redis failure: a command that failed, took too long, or a client that is not ready. The Redis tiers catch it and
 * fall back to this process alone; it reaches a caller only through a tier's own error.
 */
export class RedisUnavailableError extends AgentApiError {}

/** A redacted, loggable description of a request: what an error keeps of the request that failed. */
export interface RequestDescription {
  /** HTTP method, upper case. */
  method: string;
  /** Full URL with credential query parameters masked. */
  url: string;
  /** Request headers with credentials masked. */
  headers: Record<string, string>;
}

/** What errors know about the request that failed; build it with {@link createRequestContext}. */
export interface RequestContext {
  /** The operationId when known, otherwise the route. */
  operation: string;
  /** `METHOD /path` (template when the service provides one). */
  route: string;
  /** Redacted description of the request. */
  request: RequestDescription;
  /** Secret values to mask in bodies and causes. Never stored on an error. */
  secrets: readonly string[];
  /** The path the API's base URL ends with, when known (see {@link OperationInfo.basePath}). */
  basePath?: string;
  /**
   * Masks this request's secrets in the cause of an error (an `Error` chain or any value); set by
   * `createRequestContext`. A context without it cannot mask a cause, so errors built from it keep none.
   */
  redactCause?: ((cause: unknown) => unknown) | undefined;
}

/** The parts of an HTTP response the call path words an {@link APIError} from (already redacted). */
export interface ErrorResponse {
  /** HTTP status code. */
  status: number;
  /** Reason phrase; a standard one is used when empty. */
  statusText?: string;
  /** Response headers. */
  headers: Headers;
  /** Parsed JSON body, the text body, or undefined when empty. */
  body: unknown;
}

/** The server answered with a non-success status. Subclasses exist for the common statuses. */
export class APIError extends AgentApiError {
  override name = 'APIError';
  /** HTTP status code. */
  declare readonly status: number;
  /** Response headers, credentials masked. */
  declare readonly headers: Headers;
  /** Parsed JSON error body (or text), secrets masked. */
  declare readonly body: unknown;
  /** The operationId when known, otherwise `METHOD /path`. */
  declare readonly operation: string;
  /** `METHOD /path` of the operation. */
  declare readonly route: string;
  /** Redacted description of the request that failed. */
  declare readonly request: RequestDescription;
  /** The `x-request-id` response header, when present. */
  declare readonly requestId: string | undefined;
  /** The wait the server asked for (`retry-after-ms` / `Retry-After`, on a 429 or a 503), in ms, when it said. */
  declare readonly retryAfter: number | undefined;

  /**
   * Keeps what it is given. The call path builds it with `apiErrorFromResponse` (`@agent-apis/core/call`), which
   * picks the subclass, redacts the answer, reads `x-request-id` and the wait asked for, and words the message
   * (status and reason phrase, operation, URL, the body's own message or field problems, a base-URL hint).
   */
  constructor(message: string, fields: APIErrorFields) {
    super(message);
    Object.assign(this, fields);
  }
}

/** What an {@link APIError} keeps, already redacted: see its properties. */
export type APIErrorFields = Pick<
  APIError,
  'status' | 'headers' | 'body' | 'operation' | 'route' | 'request' | 'requestId' | 'retryAfter'
>;

/** 400 Bad Request. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 401 Unauthorized: missing or wrong credentials. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403 Forbidden: the credentials lack a permission. */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/** 404 Not Found. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 409 Conflict. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 422 Unprocessable Entity: the server rejected the request content. */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
/** 429 Too Many Requests. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** @deprecated The same as {@link APIError.retryAfter}; read that. */
  get retryAfterMs(): number | undefined {
    return this.retryAfter;
  }
}
/** Any 5xx status. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** The {@link APIError} subclass for an HTTP status; plain {@link APIError} for statuses without one. */
export function errorClassForStatus(status: number): typeof APIError {
  return STATUS_CLASSES[status] ?? (status >= 500 ? InternalServerError : APIError);
}

const STATUS_CLASSES: Readonly<Record<number, typeof APIError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** No response arrived: DNS, TLS, connection reset, … The original error is kept, redacted, as `cause`. */
export class APIConnectionError extends AgentApiError {
  override name = 'APIConnectionError';
  /** The operationId when known, otherwise `METHOD /path`. */
  declare readonly operation: string;
  /** `METHOD /path` of the operation. */
  declare readonly route: string;
  /** Redacted description of the request that failed. */
  declare readonly request: RequestDescription;

  /** Host the connection was for. */
  declare readonly host: string | undefined;
  /** Port the connection was for (the scheme's default when the URL names none). */
  declare readonly port: number | undefined;
  /** The system error code found in the cause chain, e.g. `ECONNREFUSED`, `ENOTFOUND`. */
  declare readonly code: string | undefined;

  /**
   * Keeps what it is given; `options.cause` must already be redacted. The call path builds it with
   * `connectionError` (`@agent-apis/core/call`), which masks the cause and finds the host, port and system code.
   */
  constructor(message: string, fields: ConnectionErrorFields, options?: ErrorOptions) {
    super(message, options);
    Object.assign(this, fields);
  }
}

/** What an {@link APIConnectionError} keeps: see its properties. */
export type ConnectionErrorFields = Pick<
  APIConnectionError,
  'operation' | 'route' | 'request' | 'host' | 'port' | 'code'
>;

/** The response body exceeded the client's `maxResponseBytes`; reading stopped there. Never retried. */
export class ResponseTooLargeError extends AgentApiError {
  override name = 'ResponseTooLargeError';
  /** The cap that was exceeded, in bytes. */
  declare readonly maxBytes: number;

  /** Keeps what it is given; the call path (`body-reader.ts`) words the message, the URL's credentials masked. */
  constructor(message: string, maxBytes: number) {
    super(message);
    this.maxBytes = maxBytes;
  }
}

/** The store banned these credentials for hitting its rate limit too often; no request is sent until `resetAt`. */
export class RateLimitBanError extends AgentApiError {
  override name = 'RateLimitBanError';
  /** When the ban ends. */
  declare readonly resetAt: Date;

  /** Keeps what it is given; the store's limiter builds it with `rateLimitBanError` (`@agent-apis/core/call`). */
  constructor(message: string, resetAt: Date) {
    super(message);
    this.resetAt = resetAt;
  }
}

/** No response arrived within the timeout (after any retries). */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  /** The call's timeout that elapsed (every attempt and wait included), in ms. */
  declare readonly timeoutMs: number;

  /** Keeps what it is given; the call path builds it with `timeoutError` (`@agent-apis/core/call`). */
  constructor(message: string, fields: ConnectionErrorFields & { timeoutMs: number }) {
    super(message, fields, { cause: undefined });
  }
}

/** One way the response differs from its schema. */
export interface ResponseIssue {
  /** Path into the body, e.g. `results.0.stars` (empty for the body itself). */
  path: string;
  message: string;
}

/** A successful response whose body does not match the operation's schema. */
export class ResponseValidationError extends AgentApiError {
  override name = 'ResponseValidationError';
  declare readonly operation: string;
  declare readonly status: number;
  declare readonly issues: readonly ResponseIssue[];

  constructor(operation: string, status: number, issues: readonly ResponseIssue[]) {
    const first = issues[0];
    const where = first ? `${first.path || '(body)'}: ${first.message}` : 'unknown problem';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`Response of ${operation} (${status}) does not match its schema at ${where}${more}`);
    this.operation = operation;
    this.status = status;
    this.issues = issues;
  }
}
