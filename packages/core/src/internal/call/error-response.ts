/**
 * The masking half of the errors, loaded with the call path: the request context an error is built from (the
 * operation, the redacted request, the secrets to mask) and the reading of a failed response into its
 * {@link APIError} subclass.
 */

import type { OperationInfo } from '../../operations.js';
import { onAbort } from './abort.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  type ConnectionErrorFields,
  type ErrorResponse,
  errorClassForStatus,
  RateLimitBanError,
  type RequestContext,
  ResponseTooLargeError,
} from './answer-errors.js';
import { type ReadBounds, readBoundedBody } from './body-reader.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './env.js';
import { operationLabel } from './operation-label.js';
import { describeRequest, redactError, redactHeaders, redactText, redactValue, secretsFromRequest } from './redact.js';
import { retryAfterMs } from './retry-after.js';

/** Builds the {@link RequestContext} of a request: names the operation and collects the secrets it carries. */
export function createRequestContext(
  request: Request,
  operation: OperationInfo = {},
  secrets: readonly string[] = [],
): RequestContext {
  const allSecrets = [...secrets, ...secretsFromRequest(request)];
  const route = operation.route ?? `${request.method.toUpperCase()} ${new URL(request.url).pathname}`;
  return {
    operation: operation.id ?? route,
    route,
    request: describeRequest(request, allSecrets),
    secrets: allSecrets,
    ...(operation.basePath ? { basePath: operation.basePath } : {}),
    redactCause: (cause) =>
      cause instanceof Error
        ? redactError(cause, allSecrets)
        : redactValue(cause, allSecrets, { maskCredentialKeys: true }),
  };
}

/** How {@link apiErrorFromResponse} reads a failed response's body. */
export interface ErrorBodyReadOptions {
  /**
   * Most bytes read (after decompression; default 8 MiB, the clients' `maxResponseBytes`): a body announced or
   * growing past it is cancelled there and {@link ResponseTooLargeError} is thrown instead of an `APIError`.
   */
  maxBytes?: number | undefined;
  /** Ends the read when it aborts, however the `fetch` that produced the response treats signals. */
  signal?: AbortSignal | undefined;
}

/**
 * Reads the body of a failed response (JSON when it parses, text otherwise), masks secrets in it and in the
 * headers, and returns the {@link APIError} subclass that matches the status. The body is read under
 * `options.maxBytes` ({@link ResponseTooLargeError} past it) and until `options.signal` aborts (then the promise
 * rejects with the signal's reason); a body that breaks off otherwise leaves the error without one.
 */
export async function apiErrorFromResponse(
  response: Response,
  context: RequestContext,
  options: ErrorBodyReadOptions = {},
): Promise<APIError> {
  const text = await readErrorText(response, options);
  const errorClass = errorClassForStatus(response.status);
  const headers = new Headers(redactHeaders(response.headers, context.secrets));
  const redacted: ErrorResponse = {
    status: response.status,
    statusText: response.statusText,
    headers,
    body: parseBody(text, context.secrets),
  };
  return new errorClass(errorMessage(context, redacted), {
    status: response.status,
    headers,
    body: redacted.body,
    operation: context.operation,
    route: context.route,
    request: context.request,
    requestId: headers.get('x-request-id') ?? undefined,
    retryAfter: retryAfterMs(headers),
  });
}

/**
 * The error of a request that got no answer (DNS, TLS, a reset, …): its cause masked with the context's secrets (left
 * out when the context cannot mask it; its system code still shows), the host and port it was for, and the first
 * system error code (`ECONNREFUSED`, …) along the cause chain.
 */
export function connectionError(context: RequestContext, cause?: unknown): APIConnectionError {
  const kept = cause === undefined ? undefined : context.redactCause?.(cause);
  const fields = connectionFields(context, systemErrorCode(cause));
  const where = fields.host ? ` to ${fields.host}:${fields.port}` : '';
  const reason = fields.code ? `: ${fields.code}` : kept instanceof Error && kept.message ? `: ${kept.message}` : '';
  return new APIConnectionError(`Connection error on ${operationLabel(context)}${where}${reason}`, fields, {
    cause: kept,
  });
}

/** The error of a call refused because the API banned the credentials until `resetAt`. */
export function rateLimitBanError(resetAt: Date): RateLimitBanError {
  return new RateLimitBanError(
    `The API banned these credentials for exceeding its rate limit until ${resetAt.toISOString()}; no request is sent before then`,
    resetAt,
  );
}

/** The error of a call whose timeout (every attempt and wait included) elapsed. */
export function timeoutError(context: RequestContext, timeoutMs: number): APIConnectionTimeoutError {
  return new APIConnectionTimeoutError(`Request timed out after ${timeoutMs} ms on ${operationLabel(context)}`, {
    ...connectionFields(context, undefined),
    timeoutMs,
  });
}

function connectionFields(context: RequestContext, code: string | undefined): ConnectionErrorFields {
  const { operation, route, request } = context;
  try {
    const url = new URL(request.url);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { operation, route, request, host: url.hostname, port, code };
  } catch {
    return { operation, route, request, host: undefined, port: undefined, code };
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

let decoder: TextDecoder | undefined;

/** The body as text, read with core's one bounded reader (see {@link ErrorBodyReadOptions}). */
async function readErrorText(response: Response, { maxBytes, signal }: ErrorBodyReadOptions): Promise<string> {
  let stopWatching: (() => void) | undefined;
  const bounds: ReadBounds | undefined = signal && {
    get interrupted() {
      return signal.aborted;
    },
    throwIfInterrupted: () => signal.throwIfAborted(),
    onInterruptCancel: (cancel) => {
      stopWatching = onAbort(signal, cancel);
    },
  };
  try {
    const bytes = await readBoundedBody(response, maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES, bounds);
    decoder ??= new TextDecoder();
    return bytes.byteLength === 0 ? '' : decoder.decode(bytes);
  } catch (error) {
    if (error instanceof ResponseTooLargeError || signal?.aborted) throw error;
    return '';
  } finally {
    stopWatching?.();
  }
}

/**
 * `404 Not Found on getProduct (GET /v1/products/{id}.json) at <url>: <detail>`, with a hint when the URL lacks
 * the path the API lives under.
 */
export function errorMessage(context: RequestContext, response: ErrorResponse): string {
  const statusText = response.statusText || REASON_PHRASES[response.status] || '';
  const detail = detailOf(response.body);
  return `${response.status}${statusText ? ` ${statusText}` : ''} on ${operationLabel(context)} at ${context.request.url}${detail ? `: ${detail}` : ''}${basePathHint(context, response.status)}`;
}

const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const MAX_DETAIL_LENGTH = 300;

/** The human-readable part of an error body: a `message`/`error`/`detail`/`title` string, or the body itself. */
function detailOf(body: unknown): string {
  if (body === undefined || body === null || body === '') return '';
  if (typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const nested = record.error as Record<string, unknown> | undefined;
    const problems = fieldProblems(record.errors ?? nested?.errors);
    for (const candidate of [record.message, record.error, nested?.message, record.detail, record.title]) {
      if (typeof candidate === 'string' && candidate.length > 0) {
        return truncate(problems ? `${candidate} (${problems})` : candidate);
      }
    }
    if (problems) return truncate(problems);
  }
  return truncate(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * A server's validation messages as one line: `{ name: ["can't be blank"], price: ["is not a number"] }` →
 * `name can't be blank; price is not a number`; a list of strings or of `{ field, message }` records likewise.
 */
function fieldProblems(errors: unknown): string {
  if (!errors || typeof errors !== 'object') return typeof errors === 'string' ? errors : '';
  const entries: [string, unknown][] = Array.isArray(errors)
    ? errors.map((entry) =>
        typeof entry === 'string' ? ['', entry] : [String(entry?.field ?? entry?.path ?? ''), entry?.message],
      )
    : Object.entries(errors);
  return entries
    .map(([field, messages]) => {
      const text = [messages]
        .flat()
        .filter((message) => typeof message === 'string')
        .join(', ');
      return text && (field ? `${field} ${text}` : text);
    })
    .filter(Boolean)
    .join('; ');
}

function truncate(text: string): string {
  const singleLine = text.replace(/\s+/g, ' ').trim();
  return singleLine.length > MAX_DETAIL_LENGTH ? `${singleLine.slice(0, MAX_DETAIL_LENGTH)}…` : singleLine;
}

/**
 * What to try when a 404's URL lacks the path the API lives under (a base URL without `/v1`): every call of
 * such a client is a 404, and the message says so instead of blaming the record.
 */
function basePathHint(context: RequestContext, status: number): string {
  const base = context.basePath;
  if (status !== 404 || !base) return '';
  // URL.parse is newer than the Node 20 the packages support.
  const url = URL.canParse(context.request.url) ? new URL(context.request.url) : undefined;
  return url && !url.pathname.includes(`${base}/`)
    ? ` (hint: the URL has no ${base}; the API lives under it, so the base URL probably needs it: ${url.origin}${base})`
    : '';
}

function parseBody(text: string, secrets: readonly string[]): unknown {
  if (text === '') return undefined;
  try {
    return redactValue(JSON.parse(text), secrets);
  } catch {
    return redactText(text, secrets);
  }
}
