/**
 * The transport every client call goes through: one typed call in, per attempt one `Request` out, with
 * one deadline for the whole call (every attempt, body and wait), retries, a response size cap, hooks, redacted logging, typed errors and an
 * optional HTTP cache. Per-call options are fields of the call, never headers.
 *
 * One call is a short loop ({@link runCall}) over named steps: {@link sendAttempt} (the hooks before, the request and
 * its same-origin redirects, the body read under the deadline and the size cap, the hooks after), the answer
 * accepted ({@link isAnswer}, {@link acceptAnswer}) or the failure weighed ({@link decideOnFailure}), then thrown
 * ({@link failureError}) or waited out before the next attempt ({@link waitForRetry}).
 */

import type { HeadersInput, OperationInfo, RequestOptions } from '../../operations.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type RequestContext,
  ResponseTooLargeError,
} from './answer-errors.js';
import { AttemptBounds } from './attempt.js';
import { NULL_BODY_STATUSES, readBoundedBody } from './body-reader.js';
import type { CachePlan, PlanningCache as HttpCache } from './cache-plan.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './env.js';
import { apiErrorFromResponse, connectionError, createRequestContext, timeoutError } from './error-response.js';
import { APIUserAbortError, ResponseParseError } from './errors.js';
import { createLogger, type Logger, type LogLevel, resolveLogLevel } from './logger.js';
import { sameOriginRedirect } from './redirect.js';
import { DEFAULT_MAX_RETRIES, decideRetry, type RetryDecision, type RetryPolicy, type RetryTrigger } from './retry.js';
import { sleep as defaultSleep, type Sleep } from './timers.js';
import { callHeaders } from './wire-encoding.js';

export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './env.js';

/** Same-origin redirects followed at most per attempt. */
const MAX_REDIRECTS = 5;

/** One call as the transport takes it: everything it needs is a field, nothing is smuggled in headers. */
export interface TransportCall extends Pick<RequestOptions, 'timeout' | 'maxRetries'> {
  method: string;
  /** Absolute URL, query included. */
  url: string;
  /** Headers of this call; the transport adds the default headers under them (to a `Headers` given, in place). */
  headers?: HeadersInput | undefined;
  /** The body, already serialised, so every attempt can send it again. */
  body?: string | undefined;
  /** The caller's signal. */
  signal?: AbortSignal | null | undefined;
  /** How errors and logs name this call. */
  operation?: OperationInfo | undefined;
  /** The spec promises a JSON success body: a success answer of another content type is a {@link ResponseParseError}. */
  expectJson?: boolean | undefined;
}

/** Method, URL and headers of a request about to be sent: a `Request`, or the parts fetch builds one from. */
export interface RequestHead {
  method: string;
  url: string;
  headers: Headers;
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

/** What `onRetry` learns before the wait that precedes a retry. */
export interface RetryEvent extends AttemptContext {
  /** The wait before the next attempt, in ms. */
  delayMs: number;
  /** Why the attempt failed: `status 503`, `timeout` or `connection`. */
  reason: string;
}

/** Observers of every call; they see requests and responses but cannot change the outcome, except by throwing. */
export interface TransportHooks {
  /** Before every attempt is sent (after `beforeRequest`), with the exact request. */
  onRequest?: (request: Request, context: AttemptContext) => void | Promise<void>;
  /** After every response arrived and its body was read (the body can be read again). */
  onResponse?: (response: Response, context: AttemptContext) => void | Promise<void>;
  /** Before waiting for a retry. */
  onRetry?: (event: RetryEvent) => void | Promise<void>;
}

/** Options of {@link createTransport}. */
export interface CreateFetchOptions {
  /** The underlying fetch (default: `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch | undefined;
  /**
   * The whole call's deadline in ms, retries included: from the first attempt until the last body is read, waits
   * between attempts too (default 60 000). A retry whose wait would end past it is not made; the failure is thrown.
   */
  timeout?: number | undefined;
  /** Retries after the first attempt for idempotent requests (default 2). */
  maxRetries?: number | undefined;
  /** Backoff and `Retry-After` cap overrides (see {@link RetryPolicy}). */
  retryPolicy?: Partial<Omit<RetryPolicy, 'maxRetries'>> | undefined;
  /** Largest response body read, in bytes after decompression (default 8 MiB); a bigger one is refused. */
  maxResponseBytes?: number | undefined;
  /**
   * Redirects: `'same-origin'` (default) follows up to 5 to the same origin and refuses the rest; `'none'`
   * follows none. A redirect not followed is an {@link APIError}.
   */
  redirects?: 'same-origin' | 'none' | undefined;
  /** Destination of log lines (default `console`); everything is redacted before it gets there. */
  logger?: Logger | undefined;
  /** Log level; wins over `logEnvVar` (default `off`). */
  logLevel?: LogLevel | undefined;
  /** Environment variable holding the log level, e.g. `AGENT_APIS_LOG`. */
  logEnvVar?: string | undefined;
  /** Headers added to every request that does not set them itself. */
  defaultHeaders?: HeadersInput | undefined;
  /** Secret values (keys, tokens, passwords) to mask in errors and logs, besides those found in the request. */
  redactSecrets?: readonly string[] | undefined;
  /** Runs before every attempt, e.g. a rate limiter's `acquire`. May wait; should honour `context.signal`. */
  beforeRequest?: ((request: RequestHead, context: AttemptContext) => void | Promise<void>) | undefined;
  /** Runs after every response, retried or not, e.g. to adapt a rate limiter; may throw to stop the call. */
  afterResponse?:
    | ((response: Response, request: RequestHead, context: AttemptContext) => void | Promise<void>)
    | undefined;
  /** Caller hooks: on request, on response, on retry. */
  hooks?: TransportHooks | undefined;
  /**
   * Checks a successful response before it is returned, e.g. against the spec's schema (see
   * {@link schemaResponseValidator}); throw to refuse it. Runs once per call, never on retried attempts.
   */
  validateResponse?: ((response: Response, context: AttemptContext) => void | Promise<void>) | undefined;
  /** An HTTP cache for GET responses; `false` or absent disables caching. */
  cache?: HttpCache | false | undefined;
  /** Wait used between retries (tests inject a fake). */
  sleep?: Sleep | undefined;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: (() => number) | undefined;
  /** Clock in ms, used for `Retry-After` dates and timings (default `Date.now`). */
  now?: (() => number) | undefined;
}

/** A response whose body was read into memory: `response` carries status and headers (its body is spent). */
export interface BufferedResponse {
  response: Response;
  bytes: Uint8Array;
}

/** Sends typed calls; see {@link createTransport}. */
export interface Transport {
  /** Sends `call` (with retries) and resolves to its successful response, body already read; throws otherwise. */
  send(call: TransportCall): Promise<Response>;
  /** Like `send`, without wrapping the read bytes in a new `Response`: status and headers next to the bytes. */
  sendBuffered(call: TransportCall): Promise<BufferedResponse>;
}

/** A fresh `Response` over the bytes, for anyone who reads the body again. */
export function bufferedToResponse({ response, bytes }: BufferedResponse): Response {
  const body = NULL_BODY_STATUSES.has(response.status) ? null : (bytes as Uint8Array<ArrayBuffer>);
  // The head is copied entry by entry: a fetch may hand back a Headers of another implementation (test
  // environments, interceptors) that this realm's Headers constructor does not read.
  const headers = response.headers instanceof Headers ? [...response.headers] : response.headers;
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** What one attempt came to: an answer read whole, or why there is none. */
type AttemptOutcome =
  | { buffered: BufferedResponse }
  | { failure: 'timeout' | 'connection' | 'too-large'; cause: unknown };

let neverAbortedSignal: AbortSignal | undefined;

/** The signal hooks see for calls that pass none: never aborts (made at first use, never at import). */
function neverAborted(): AbortSignal {
  neverAbortedSignal ??= new AbortController().signal;
  return neverAbortedSignal;
}

/** The options of a transport, resolved once when it is built. */
interface TransportSettings {
  readonly options: CreateFetchOptions;
  readonly logger: Logger;
  readonly debug: boolean;
  readonly fetch: typeof fetch;
  readonly wait: Sleep;
  readonly now: () => number;
  readonly maxBytes: number;
  readonly followRedirects: boolean;
  readonly hooks: TransportHooks;
  /** Whether any hook runs per attempt (else no hook context is built). */
  readonly needsContext: boolean;
  /** Whether a caller hook is handed the `Request` itself (else fetch gets URL and init and builds the only one). */
  readonly needsRequest: boolean;
}

function transportSettings(options: CreateFetchOptions): TransportSettings {
  const logLevel = resolveLogLevel({ level: options.logLevel, envVar: options.logEnvVar });
  const hooks = options.hooks ?? {};
  return {
    options,
    logger: createLogger({ sink: options.logger, level: logLevel, secrets: options.redactSecrets }),
    debug: logLevel === 'debug',
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    wait: options.sleep ?? defaultSleep,
    now: options.now ?? (() => Date.now()),
    maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    followRedirects: options.redirects !== 'none',
    hooks,
    needsContext: Boolean(options.beforeRequest || options.afterResponse || hooks.onRequest || hooks.onResponse),
    needsRequest: Boolean(hooks.onRequest || hooks.onResponse),
  };
}

/** One call through its attempts: what every step reads of it, and how errors name it. */
class CallState {
  readonly callerSignal: AbortSignal | undefined;
  readonly timeoutMs: number;
  /** When the call's timeout passes, on the transport's clock. */
  readonly deadline: number;
  readonly maxRetries: number;
  /** The last request sent (or about to be): errors describe it. */
  last: RequestHead;
  #names: Pick<RequestContext, 'operation' | 'route'> | undefined;
  #context: RequestContext | undefined;

  constructor(
    readonly settings: TransportSettings,
    readonly call: TransportCall,
    /** The request as the cache saw it (headers, URL). */
    readonly first: RequestHead,
  ) {
    this.callerSignal = call.signal ?? undefined;
    this.timeoutMs = call.timeout ?? settings.options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.deadline = settings.now() + this.timeoutMs;
    this.maxRetries = call.maxRetries ?? settings.options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.last = first;
  }

  /** Time left before the call's deadline, in ms. */
  remainingMs(): number {
    return this.deadline - this.settings.now();
  }

  /** The operationId (else the route) and the route, as errors and hooks name the call. */
  names(): Pick<RequestContext, 'operation' | 'route'> {
    if (!this.#names) {
      const route = this.call.operation?.route ?? `${this.first.method} ${new URL(this.first.url).pathname}`;
      this.#names = { operation: this.call.operation?.id ?? route, route };
    }
    return this.#names;
  }

  /** What an error of this call knows of it: the last request, redacted (built when an error needs it). */
  context(): RequestContext {
    const last = this.last;
    this.#context ??= createRequestContext(
      last instanceof Request ? last : new Request(last.url, { method: last.method, headers: last.headers }),
      this.call.operation,
      this.settings.options.redactSecrets,
    );
    return this.#context;
  }

  aborted(): APIUserAbortError {
    return new APIUserAbortError(this.names());
  }
}

/**
 * One call through retries: each attempt is sent and read, then its answer is returned or its failure thrown or
 * waited out. `finish`, when given, turns a successful answer into what the call returns (the cache's completion step).
 */
async function runCall(
  call: CallState,
  finish?: (buffered: BufferedResponse) => BufferedResponse | Promise<BufferedResponse>,
): Promise<BufferedResponse> {
  if (call.callerSignal?.aborted) throw call.aborted();
  for (let retriesSoFar = 0; ; retriesSoFar++) {
    const attempt = retriesSoFar + 1;
    if (call.callerSignal?.aborted) throw call.aborted();
    const outcome = await sendAttempt(call, attempt);
    if ('buffered' in outcome && isAnswer(outcome.buffered.response, call.first)) {
      const accepted = acceptAnswer(call, outcome.buffered, attempt);
      if (accepted) await accepted;
      return finish ? finish(outcome.buffered) : outcome.buffered;
    }
    const decision = decideOnFailure(call, outcome, retriesSoFar);
    if (!decision.retry) throw await failureError(call, outcome, decision.reason);
    await waitForRetry(call, outcome, attempt, decision.delayMs);
  }
}

/**
 * One attempt, within its bounds ({@link AttemptBounds}): `beforeRequest` and `onRequest`, the request and the
 * same-origin redirects it is answered with, the whole body read under the size cap; then, bounds ended,
 * `afterResponse` and `onResponse`. A caller's abort throws {@link APIUserAbortError}; any other failure to get an
 * answer is the outcome (to retry or throw), as is the answer.
 */
async function sendAttempt(call: CallState, attempt: number): Promise<AttemptOutcome> {
  const { settings, first } = call;
  const { options, hooks } = settings;
  const bounds = new AttemptBounds(call.remainingMs(), call.callerSignal);
  // Hooks see the attempt's signal: the caller's abort and the call's deadline both end what they wait on (a
  // rate limiter's queue), so the timeout bounds the wait for a grant as well as the request.
  const hookContext: AttemptContext | undefined = settings.needsContext
    ? { attempt, ...call.names(), signal: bounds.controller.signal }
    : undefined;
  // Caller hooks are handed the exact `Request`; without them, fetch gets URL and init and builds the only one.
  const request = settings.needsRequest
    ? new Request(first.url, initFor(first, call.call.body, bounds.controller.signal))
    : undefined;
  let source: RequestHead = request ?? first;
  call.last = source;
  if (hookContext) {
    try {
      // A hook that does not wait returns no promise, and is not waited on (an `await` costs the call a step).
      const before = options.beforeRequest?.(source, hookContext);
      if (before) await bounds.guard(before);
      if (request) await hooks.onRequest?.(request, hookContext);
    } catch (error) {
      bounds.end();
      if (call.callerSignal?.aborted) throw call.aborted();
      if (bounds.timedOut) throw timeoutError(call.context(), call.timeoutMs);
      throw error;
    }
  }
  if (settings.debug)
    settings.logger.debug(`${first.method} ${first.url} (attempt ${attempt}, ${call.names().operation})`);
  const startedAt = settings.debug ? settings.now() : 0;
  let outcome: AttemptOutcome;
  try {
    let response = await bounds.response(
      request
        ? settings.fetch(request)
        : settings.fetch(first.url, initFor(first, call.call.body, bounds.controller.signal)),
    );
    if (settings.followRedirects && isRedirect(response)) {
      ({ response, source } = await followRedirects(call, bounds, response, source));
    }
    // Every body is read here, inside the timeout and under the size cap: a body that stalls, breaks off or grows
    // without end is a failure of this attempt, not a raw error or an unbounded buffer later.
    outcome = { buffered: { response, bytes: await readBoundedBody(response, settings.maxBytes, bounds) } };
  } catch (error) {
    bounds.dropLateResponse();
    if (call.callerSignal?.aborted) throw call.aborted();
    outcome =
      error instanceof ResponseTooLargeError
        ? { failure: 'too-large', cause: error }
        : { failure: bounds.timedOut ? 'timeout' : 'connection', cause: error };
  } finally {
    bounds.end();
  }
  if ('buffered' in outcome) {
    // The response itself carries status and headers (its body is spent); a copy is made only for whoever reads the
    // body again (hooks, validation, errors, the cache).
    const { buffered } = outcome;
    if (settings.debug) {
      settings.logger.debug(
        `${buffered.response.status} from ${call.names().operation} in ${settings.now() - startedAt} ms`,
      );
    }
    if (hookContext) {
      const after = options.afterResponse?.(buffered.response, source, hookContext);
      if (after) await after;
      if (hooks.onResponse) await hooks.onResponse(bufferedToResponse(buffered), hookContext);
    }
  }
  return outcome;
}

/**
 * Follows up to {@link MAX_REDIRECTS} same-origin redirects of `response` within the attempt's bounds (a GET after
 * a 303, or a 301/302 of a POST, goes without body); a redirect not followed is the answer, to be thrown as an error.
 */
async function followRedirects(
  call: CallState,
  bounds: AttemptBounds,
  first: Response,
  firstSource: RequestHead,
): Promise<{ response: Response; source: RequestHead }> {
  const { settings } = call;
  let response = first;
  let source = firstSource;
  for (let hops = 0; isRedirect(response) && hops < MAX_REDIRECTS; hops++) {
    const next = sameOriginRedirect(source, response);
    if (!next) break;
    // Not awaited: a body whose cancel never settles must not hold the call past its timeout.
    response.body?.cancel().catch(noop);
    const init = initFor(next, next.method === 'GET' ? undefined : call.call.body, bounds.controller.signal);
    const request = settings.needsRequest ? new Request(next.url, init) : undefined;
    source = request ?? next;
    call.last = source;
    response = await bounds.response(request ? settings.fetch(request) : settings.fetch(next.url, init));
  }
  return { response, source };
}

/**
 * Whether `response` answers the call: a status below 300, or a 304 to a conditional request (the cache's
 * revalidation; unsolicited, a 304 is an error like any 3xx). The request's headers are read only when a 304 comes.
 */
function isAnswer(response: Response, first: RequestHead): boolean {
  return (
    response.status < 300 ||
    (response.status === 304 && (first.headers.has('if-none-match') || first.headers.has('if-modified-since')))
  );
}

/**
 * Checks an answer before it is returned: JSON when the spec promises it ({@link ResponseParseError} otherwise),
 * then the caller's `validateResponse`, once per call. Returns no promise when there is nothing to wait for.
 */
function acceptAnswer(call: CallState, buffered: BufferedResponse, attempt: number): Promise<void> | undefined {
  const { response } = buffered;
  const type = call.call.expectJson && response.status !== 204 ? response.headers.get('content-type') : null;
  if (type && !/[/+]json\b/i.test(type)) {
    const { operation, route } = call.names();
    throw new ResponseParseError(operation, route, `is not JSON as its spec says (got ${type.split(';')[0]})`);
  }
  const validate = call.settings.options.validateResponse;
  if (!validate) return undefined;
  return Promise.resolve(
    validate(bufferedToResponse(buffered), {
      attempt,
      ...call.names(),
      signal: call.callerSignal ?? neverAborted(),
    }),
  );
}

/** What failed, as the retry policy reads it. */
function retryTrigger(outcome: AttemptOutcome): RetryTrigger {
  if ('buffered' in outcome) {
    const { response } = outcome.buffered;
    return { kind: 'response', status: response.status, headers: response.headers };
  }
  return { kind: outcome.failure === 'too-large' ? 'connection' : outcome.failure };
}

/** Whether to try again, per {@link decideRetry}: never after a body too large. */
function decideOnFailure(call: CallState, outcome: AttemptOutcome, retriesSoFar: number): RetryDecision {
  if ('failure' in outcome && outcome.failure === 'too-large')
    return { retry: false, reason: 'the response is too large' };
  const { settings } = call;
  return decideRetry({
    method: call.first.method,
    retriesSoFar,
    trigger: retryTrigger(outcome),
    policy: { ...settings.options.retryPolicy, maxRetries: call.maxRetries },
    remainingMs: call.remainingMs(),
    now: settings.now,
    random: settings.options.random,
  });
}

/**
 * The error a failure not retried ends the call with: the {@link APIError} subclass of an answer (its body redacted),
 * {@link ResponseTooLargeError}, {@link APIConnectionTimeoutError} or {@link APIConnectionError}.
 */
async function failureError(call: CallState, outcome: AttemptOutcome, reason: string): Promise<unknown> {
  if (call.settings.debug) call.settings.logger.debug(`Not retrying ${call.names().operation}: ${reason}`);
  if ('buffered' in outcome) {
    // Already read under the same cap: nothing is cut again.
    const { maxBytes } = call.settings;
    return apiErrorFromResponse(bufferedToResponse(outcome.buffered), call.context(), { maxBytes });
  }
  if (outcome.failure === 'too-large') return outcome.cause;
  if (outcome.failure === 'timeout') return timeoutError(call.context(), call.timeoutMs);
  return connectionError(call.context(), outcome.cause);
}

/** Logs the retry, tells `onRetry`, and waits `delayMs`; the caller's abort ends the wait ({@link APIUserAbortError}). */
async function waitForRetry(call: CallState, outcome: AttemptOutcome, attempt: number, delayMs: number): Promise<void> {
  const { settings } = call;
  const trigger = retryTrigger(outcome);
  const reason = trigger.kind === 'response' ? `status ${trigger.status}` : trigger.kind;
  const { operation, route } = call.names();
  settings.logger.info(
    `Retrying ${operation} after ${reason} in ${delayMs} ms (retry ${attempt} of ${call.maxRetries})`,
  );
  await settings.hooks.onRetry?.({
    attempt,
    operation,
    route,
    signal: call.callerSignal ?? neverAborted(),
    delayMs,
    reason,
  });
  try {
    await settings.wait(delayMs, call.callerSignal);
  } catch {
    throw call.aborted();
  }
}

const noop = () => undefined;

/** What one attempt sends besides its URL; `source` carries method and headers. */
function initFor(source: RequestHead, body: string | undefined, signal: AbortSignal | undefined): RequestInit {
  return signal
    ? { method: source.method, headers: source.headers, body, signal, redirect: 'manual' }
    : { method: source.method, headers: source.headers, body, redirect: 'manual' };
}

/** How errors raised before sending name a call: its operationId, else its route or method. */
function callName({ operation, method }: TransportCall): string {
  return operation?.id || operation?.route || method.toUpperCase();
}

function isRedirect(response: Response): boolean {
  return (
    response.status >= 301 && response.status <= 308 && response.status !== 304 && response.headers.has('location')
  );
}

/**
 * The transport of the service clients. Per attempt it runs `beforeRequest`, builds one `Request` (the body
 * is a string, so a retry sends it again), sends it under the call's deadline combined with the caller's signal,
 * reads the whole body (success or error) before that deadline and under `maxResponseBytes`, and runs
 * `afterResponse`. Failed idempotent requests are retried per {@link decideRetry}, never past the deadline; POST
 * and PATCH never are.
 * Statuses ≥ 300 that are not retried or followed become the matching {@link APIError} subclass; network
 * failures become {@link APIConnectionError}, timeouts {@link APIConnectionTimeoutError}, oversized bodies
 * {@link ResponseTooLargeError}, caller aborts {@link APIUserAbortError} (at once, never retried). With
 * `cache`, GETs are answered by the {@link HttpCache} first; it sees the request with every header that is sent.
 */
export function createTransport(options: CreateFetchOptions = {}): Transport {
  const settings = transportSettings(options);
  const defaultHeaders = options.defaultHeaders ? [...new Headers(options.defaultHeaders)] : [];
  const headersOf = (call: TransportCall): Headers => {
    // A header no request can carry is refused naming it, never with fetch's error, which quotes its value.
    const headers = call.headers instanceof Headers ? call.headers : callHeaders(call.headers, () => callName(call));
    for (const [name, value] of defaultHeaders) if (!headers.has(name)) headers.set(name, value);
    return headers;
  };
  const run = (
    call: TransportCall,
    first: RequestHead,
    finish?: (buffered: BufferedResponse) => BufferedResponse | Promise<BufferedResponse>,
  ) => runCall(new CallState(settings, call, first), finish);

  const cache = options.cache || undefined;
  /** An answer the cache gave instead of the one sent (a hit, a revalidated copy), read into memory. */
  const readCached = async (response: Response): Promise<BufferedResponse> => ({
    response,
    bytes: new Uint8Array(await response.arrayBuffer()),
  });
  /**
   * A call through the cache's plan: a hit is read, anything else is sent and completed within the call; the bytes
   * of an answer the cache passes on are kept, not read again. No promise is added when the cache neither looks up
   * nor stores.
   */
  const sendPlanned = (call: TransportCall, plan: CachePlan): Promise<BufferedResponse> => {
    if (plan.hit) return readCached(plan.hit);
    return run(call, plan.sent, (buffered) => {
      const completed = plan.complete(buffered.response, () => bufferedToResponse(buffered));
      const settle = (response: Response) => (response === buffered.response ? buffered : readCached(response));
      return completed instanceof Promise ? completed.then(settle) : settle(completed);
    });
  };
  const sendCached = (httpCache: HttpCache, call: TransportCall, first: RequestHead): Promise<BufferedResponse> => {
    let plan: CachePlan | Promise<CachePlan>;
    try {
      plan = httpCache.plan(first);
    } catch (error) {
      return Promise.reject(error);
    }
    return plan instanceof Promise ? plan.then((planned) => sendPlanned(call, planned)) : sendPlanned(call, plan);
  };
  // Not an async function: the promise of `run` is handed on as it is, without a promise around it.
  const sendBuffered = (call: TransportCall): Promise<BufferedResponse> => {
    let first: RequestHead;
    try {
      first = { method: call.method.toUpperCase(), url: call.url, headers: headersOf(call) };
    } catch (error) {
      return Promise.reject(error);
    }
    return cache ? sendCached(cache, call, first) : run(call, first);
  };
  return {
    sendBuffered,
    async send(call) {
      return bufferedToResponse(await sendBuffered(call));
    },
  };
}
