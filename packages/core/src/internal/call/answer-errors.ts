/**
 * The errors of answers and connections: {@link APIError} and one class per common status, connection errors and
 * timeouts, bodies too large or not matching their schema, the store's rate-limit ban. Only the call path builds
 * them, so they load with the first call, not at import. Every error carries only redacted data: the masking is done
 * by the call path (`error-response.ts`) before an error is built. Users import them from the face, `src/errors.ts`.
 */

import { operationLabel } from './operation-label.js';
import { redactUrl } from './redact-text.js';
import { AgentApiError } from './request-errors.js';
import { retryAfterMs } from './retry-after.js';

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

/** The parts of an HTTP response an {@link APIError} is built from (already redacted). */
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
  readonly status: number;
  /** Response headers, credentials masked. */
  readonly headers: Headers;
  /** Parsed JSON error body (or text), secrets masked. */
  readonly body: unknown;
  /** The operationId when known, otherwise `METHOD /path`. */
  readonly operation: string;
  /** `METHOD /path` of the operation. */
  readonly route: string;
  /** Redacted description of the request that failed. */
  readonly request: RequestDescription;
  /** The `x-request-id` response header, when present. */
  readonly requestId: string | undefined;
  /** The wait the server asked for (`retry-after-ms` / `Retry-After`, on a 429 or a 503), in ms, when it said. */
  readonly retryAfter: number | undefined;

  /**
   * Prefer `apiErrorFromResponse` (core's call path), which picks the subclass, redacts, and words the message
   * (reason phrase, the body's own message or field problems, a base-URL hint); without `message` it names status,
   * operation and URL.
   */
  constructor(context: RequestContext, response: ErrorResponse, message?: string) {
    // The URL as sent (credentials masked), so a wrong base URL or id shows at a glance.
    super(message ?? `${response.status} on ${operationLabel(context)} at ${context.request.url}`);
    this.status = response.status;
    this.headers = response.headers;
    this.body = response.body;
    this.operation = context.operation;
    this.route = context.route;
    this.request = context.request;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    this.retryAfter = retryAfterMs(response.headers);
  }
}

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
  readonly retryAfterMs: number | undefined;

  constructor(context: RequestContext, response: ErrorResponse, message?: string) {
    super(context, response, message);
    this.retryAfterMs = this.retryAfter;
  }
}
/** Any 5xx status. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** The {@link APIError} subclass for an HTTP status; plain {@link APIError} for statuses without one. */
export function errorClassForStatus(status: number): typeof APIError {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

/** No response arrived: DNS, TLS, connection reset, … The original error is kept, redacted, as `cause`. */
export class APIConnectionError extends AgentApiError {
  override name = 'APIConnectionError';
  /** The operationId when known, otherwise `METHOD /path`. */
  readonly operation: string;
  /** `METHOD /path` of the operation. */
  readonly route: string;
  /** Redacted description of the request that failed. */
  readonly request: RequestDescription;

  /** Host the connection was for. */
  readonly host: string | undefined;
  /** Port the connection was for (the scheme's default when the URL names none). */
  readonly port: number | undefined;
  /** The system error code found in the cause chain, e.g. `ECONNREFUSED`, `ENOTFOUND`. */
  readonly code: string | undefined;

  /** `cause` is redacted with the context's secrets before it is kept. */
  constructor(context: RequestContext, options: { cause?: unknown; message?: string } = {}) {
    // Without a way to mask it, the cause is left out rather than kept as it came (its code still shows).
    const cause = options.cause === undefined ? undefined : context.redactCause?.(options.cause);
    const { host, port } = hostAndPort(context.request.url);
    const code = systemErrorCode(options.cause);
    const where = host ? ` to ${host}:${port}` : '';
    const reason = code ? `: ${code}` : cause instanceof Error && cause.message ? `: ${cause.message}` : '';
    super(options.message ?? `Connection error on ${operationLabel(context)}${where}${reason}`, { cause });
    this.operation = context.operation;
    this.route = context.route;
    this.request = context.request;
    this.host = host;
    this.port = port;
    this.code = code;
  }
}

function hostAndPort(url: string): { host?: string; port?: number } {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { host: parsed.hostname, port };
  } catch {
    return {};
  }
}

/** The first `code` such as `ECONNREFUSED` along an error's cause chain (undici nests it one level down). */
function systemErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The response body exceeded the client's `maxResponseBytes`; reading stopped there. Never retried. */
export class ResponseTooLargeError extends AgentApiError {
  override name = 'ResponseTooLargeError';
  /** The cap that was exceeded, in bytes. */
  readonly maxBytes: number;

  /** `url` is shown with its credential query parameters and user-info masked. */
  constructor(url: string, maxBytes: number) {
    const where = url ? ` from ${redactUrl(url)}` : '';
    super(`Response body${where} is larger than the ${maxBytes}-byte cap (maxResponseBytes); reading stopped`);
    this.maxBytes = maxBytes;
  }
}

/** The store banned these credentials for hitting its rate limit too often; no request is sent until `resetAt`. */
export class RateLimitBanError extends AgentApiError {
  override name = 'RateLimitBanError';
  /** When the ban ends. */
  readonly resetAt: Date;

  constructor(resetAt: Date) {
    super(
      `The API banned these credentials for exceeding its rate limit until ${resetAt.toISOString()}; no request is sent before then`,
    );
    this.resetAt = resetAt;
  }
}

/** No response arrived within the timeout (after any retries). */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  /** The call's timeout that elapsed (every attempt and wait included), in ms. */
  readonly timeoutMs: number;

  constructor(context: RequestContext, timeoutMs: number) {
    super(context, { message: `Request timed out after ${timeoutMs} ms on ${operationLabel(context)}` });
    this.timeoutMs = timeoutMs;
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
  readonly operation: string;
  readonly status: number;
  readonly issues: readonly ResponseIssue[];

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
