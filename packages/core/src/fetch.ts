/**
 * The transport the generated clients call: a `fetch` with timeouts, retries, hooks, redacted logging, typed
 * errors and an optional HTTP cache.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  createRequestContext,
  type OperationInfo,
  type RequestContext,
} from './errors.js';
import type { HttpCache } from './http-cache.js';
import { createLogger, type Logger, type LogLevel } from './logger.js';
import { toRequest } from './request.js';
import { ResponseParseError } from './response-validation.js';
import { DEFAULT_MAX_RETRIES, decideRetry, type RetryPolicy, type RetryTrigger } from './retry.js';
import { sleep as defaultSleep, raceWithSignal, type Sleep } from './timers.js';

/** Per-attempt timeout unless configured otherwise: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Request headers that carry per-call options to {@link createFetch}. They are removed before the request is
 * sent. Build them with {@link requestOptionHeaders} and pass them as the `headers` of an SDK call.
 */
export const REQUEST_OPTION_HEADERS = {
  /** Per-attempt timeout in ms. */
  timeout: 'x-agent-apis-timeout',
  /** Retries after the first attempt. */
  maxRetries: 'x-agent-apis-max-retries',
  /** Operation name for errors and logs: `operationId`, optionally followed by a space and the route. */
  operation: 'x-agent-apis-operation',
  /** `1` when the operation's success response is JSON: another content type is then refused. */
  expectJson: 'x-agent-apis-expect-json',
} as const;

/** Per-call overrides of the {@link createFetch} options. */
export interface RequestOptions {
  /** Per-attempt timeout in ms. */
  timeout?: number;
  /** Retries after the first attempt (0 disables retrying). */
  maxRetries?: number;
  /** How errors and logs name this call. */
  operation?: OperationInfo;
  /** The spec promises a JSON success body: a success answer of another content type is a {@link ResponseParseError}. */
  expectJson?: boolean;
}

/** The headers that carry `options` to {@link createFetch}, e.g. `sdk.getProduct({ headers: requestOptionHeaders({ timeout: 5_000 }) })`. */
export function requestOptionHeaders(options: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.timeout !== undefined) headers[REQUEST_OPTION_HEADERS.timeout] = String(options.timeout);
  if (options.maxRetries !== undefined) headers[REQUEST_OPTION_HEADERS.maxRetries] = String(options.maxRetries);
  const { id, route } = options.operation ?? {};
  if (id !== undefined) headers[REQUEST_OPTION_HEADERS.operation] = route ? `${id} ${route}` : id;
  if (options.expectJson) headers[REQUEST_OPTION_HEADERS.expectJson] = '1';
  return headers;
}

/** What the hooks learn about an attempt. */
export interface AttemptContext {
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** The operationId when known, otherwise `METHOD /path`. */
  operation: string;
  /** `METHOD /path` of the operation. */
  route: string;
  /** The caller's signal (not the timeout): pass it to anything the hook waits on. */
  signal: AbortSignal;
}

/** Options of {@link createFetch}. */
export interface CreateFetchOptions {
  /** The underlying fetch (default: `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch;
  /** Per-attempt timeout in ms, from sending until the response headers arrive (default 60 000). */
  timeout?: number;
  /** Retries after the first attempt for idempotent requests (default 2). */
  maxRetries?: number;
  /** Backoff and `Retry-After` cap overrides (see {@link RetryPolicy}). */
  retryPolicy?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Destination of log lines (default `console`); everything is redacted before it gets there. */
  logger?: Logger;
  /** Log level; wins over `logEnvVar` (default `off`). */
  logLevel?: LogLevel;
  /** Environment variable holding the log level, e.g. `AGENT_APIS_LOG`. */
  logEnvVar?: string;
  /** Headers added to every request that does not set them itself. */
  defaultHeaders?: HeadersInit;
  /** Secret values (keys, tokens, passwords) to mask in errors and logs, besides those found in the request. */
  redactSecrets?: readonly string[];
  /** Runs before every attempt, e.g. a rate limiter's `acquire`. May wait; should honour `context.signal`. */
  beforeRequest?: (request: Request, context: AttemptContext) => void | Promise<void>;
  /** Runs after every response, retried or not, e.g. to adapt a rate limiter. Must not consume the body. */
  afterResponse?: (response: Response, request: Request, context: AttemptContext) => void | Promise<void>;
  /** Names the operation of a request for errors and logs (the operation request header wins). */
  operationFor?: (request: Request) => OperationInfo | undefined;
  /**
   * Checks a successful response before it is returned, e.g. against the spec's schema (see
   * {@link schemaResponseValidator}); throw to refuse it. Runs once per call, never on retried attempts.
   */
  validateResponse?: (response: Response, context: AttemptContext) => void | Promise<void>;
  /** An HTTP cache for GET responses; `false` or absent disables caching. */
  cache?: HttpCache | false;
  /** Wait used between retries (tests inject a fake). */
  sleep?: Sleep;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** Clock in ms, used for `Retry-After` dates and timings (default `Date.now`). */
  now?: () => number;
}

/** Everything fixed for one call before the first attempt. */
interface PreparedCall {
  /** The request to send, per-call option headers removed and default headers added; cloned per attempt. */
  template: Request;
  context: RequestContext;
  callerSignal: AbortSignal;
  timeoutMs: number;
  maxRetries: number;
  expectJson: boolean;
}

type AttemptOutcome = { response: Response } | { failure: 'timeout' | 'connection'; cause: unknown };

/**
 * A `fetch` for the generated clients. Per attempt it runs `beforeRequest`, sends a fresh clone of the request
 * under a timeout combined with the caller's signal, and runs `afterResponse`. Failed idempotent requests are
 * retried per {@link decideRetry}; POST and PATCH never are. Statuses ≥ 400 that are not retried become the
 * matching {@link APIError} subclass; network failures become {@link APIConnectionError}, timeouts
 * {@link APIConnectionTimeoutError}, caller aborts {@link APIUserAbortError} (at once, never retried).
 * Per-call options travel in {@link REQUEST_OPTION_HEADERS}. With `cache`, GETs are answered by the
 * {@link HttpCache} first and only misses and revalidations go through the steps above.
 */
export function createFetch(options: CreateFetchOptions = {}): typeof fetch {
  const logger = createLogger({
    sink: options.logger,
    level: options.logLevel,
    envVar: options.logEnvVar,
    secrets: options.redactSecrets,
  });
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const wait = options.sleep ?? defaultSleep;
  const now = options.now ?? (() => Date.now());

  const prepare = (input: RequestInfo | URL, init: RequestInit | undefined): PreparedCall => {
    const source = toRequest(input, init);
    const headers = new Headers(options.defaultHeaders);
    source.headers.forEach((value, name) => {
      headers.set(name, value);
    });
    const timeoutMs = readNumberHeader(headers, REQUEST_OPTION_HEADERS.timeout, 1) ?? options.timeout;
    const maxRetries = readNumberHeader(headers, REQUEST_OPTION_HEADERS.maxRetries, 0) ?? options.maxRetries;
    const operationHeader = headers.get(REQUEST_OPTION_HEADERS.operation);
    const expectJson = headers.get(REQUEST_OPTION_HEADERS.expectJson) === '1';
    for (const name of Object.values(REQUEST_OPTION_HEADERS)) headers.delete(name);
    const template = new Request(source.clone(), { headers });
    const operation = { ...options.operationFor?.(template), ...parseOperationHeader(operationHeader) };
    return {
      template,
      context: createRequestContext(template, operation, options.redactSecrets),
      callerSignal: source.signal,
      timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: maxRetries ?? DEFAULT_MAX_RETRIES,
      expectJson,
    };
  };

  const attemptOnce = async (call: PreparedCall, attempt: number): Promise<AttemptOutcome> => {
    const { context, callerSignal } = call;
    const timeoutController = new AbortController();
    const signal = AbortSignal.any([callerSignal, timeoutController.signal]);
    const request = new Request(call.template.clone(), { signal });
    const hookContext: AttemptContext = {
      attempt,
      operation: context.operation,
      route: context.route,
      signal: callerSignal,
    };
    try {
      await options.beforeRequest?.(request, hookContext);
    } catch (error) {
      if (callerSignal.aborted) throw new APIUserAbortError(context);
      throw error;
    }
    logger.debug(`${context.request.method} ${context.request.url} (attempt ${attempt}, ${context.operation})`);
    const startedAt = now();
    const timer = setTimeout(() => timeoutController.abort(), call.timeoutMs);
    let response: Response;
    try {
      response = await raceWithSignal(baseFetch(request), signal);
      // A successful body is read here, inside the timeout: a body that stalls or breaks off mid-stream is a
      // timeout or connection failure of this attempt (retried when idempotent), not a raw error later.
      if (response.status < 400) response = await readBody(response, signal);
    } catch (error) {
      if (callerSignal.aborted) throw new APIUserAbortError(context);
      return { failure: timeoutController.signal.aborted ? 'timeout' : 'connection', cause: error };
    } finally {
      clearTimeout(timer);
    }
    logger.debug(`${response.status} from ${context.operation} in ${now() - startedAt} ms`);
    await options.afterResponse?.(response, request, hookContext);
    return { response };
  };

  const failureOf = async (call: PreparedCall, outcome: AttemptOutcome): Promise<Error> => {
    if ('response' in outcome) return APIError.fromResponse(outcome.response, call.context);
    if (outcome.failure === 'timeout') return new APIConnectionTimeoutError(call.context, call.timeoutMs);
    return new APIConnectionError(call.context, { cause: outcome.cause });
  };

  const transport: typeof fetch = async (input, init) => {
    const call = prepare(input, init);
    const { callerSignal, context } = call;
    if (callerSignal.aborted) throw new APIUserAbortError(context);
    for (let retriesSoFar = 0; ; retriesSoFar++) {
      const outcome = await attemptOnce(call, retriesSoFar + 1);
      if ('response' in outcome && outcome.response.status < 400) {
        const type = outcome.response.headers.get('content-type');
        if (call.expectJson && outcome.response.status !== 204 && type && !/[/+]json\b/i.test(type)) {
          await outcome.response.body?.cancel().catch(() => undefined);
          throw new ResponseParseError(
            context.operation,
            context.route,
            `is not JSON as its spec says (got ${type.split(';')[0]})`,
          );
        }
        await options.validateResponse?.(outcome.response, {
          attempt: retriesSoFar + 1,
          operation: context.operation,
          route: context.route,
          signal: callerSignal,
        });
        return outcome.response;
      }
      const trigger: RetryTrigger =
        'response' in outcome
          ? { kind: 'response', status: outcome.response.status, headers: outcome.response.headers }
          : { kind: outcome.failure };
      const decision = decideRetry({
        method: call.template.method,
        retriesSoFar,
        trigger,
        policy: { ...options.retryPolicy, maxRetries: call.maxRetries },
        now,
        random: options.random,
      });
      if (!decision.retry) {
        logger.debug(`Not retrying ${context.operation}: ${decision.reason}`);
        throw await failureOf(call, outcome);
      }
      if ('response' in outcome) await outcome.response.body?.cancel().catch(() => undefined);
      const what = trigger.kind === 'response' ? `status ${trigger.status}` : trigger.kind;
      logger.info(
        `Retrying ${context.operation} after ${what} in ${decision.delayMs} ms (retry ${retriesSoFar + 1} of ${call.maxRetries})`,
      );
      try {
        await wait(decision.delayMs, callerSignal);
      } catch {
        throw new APIUserAbortError(context);
      }
    }
  };
  return options.cache ? options.cache.wrap(transport) : transport;
}

/** Statuses whose responses cannot carry a body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The same response with its body read into memory (so it can no longer stall or break off). */
async function readBody(response: Response, signal: AbortSignal): Promise<Response> {
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
  const bytes = await raceWithSignal(response.arrayBuffer(), signal);
  const headers = new Headers([...response.headers]);
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
}

function readNumberHeader(headers: Headers, name: string, minimum: number): number | undefined {
  const raw = headers.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    throw new TypeError(`${name} must be an integer ≥ ${minimum}, got "${raw}"`);
  }
  return value;
}

function parseOperationHeader(value: string | null): OperationInfo {
  if (!value) return {};
  const separator = value.indexOf(' ');
  return separator < 0 ? { id: value } : { id: value.slice(0, separator), route: value.slice(separator + 1).trim() };
}
