/**
 * The transport every client call goes through: one typed call in, per attempt one `Request` out, with
 * timeouts that cover the whole body, retries, a response size cap, hooks, redacted logging, typed errors and an
 * optional HTTP cache. Per-call options are fields of the call, never headers.
 */

import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type OperationInfo,
  type RequestContext,
  ResponseParseError,
  ResponseTooLargeError,
} from '../../errors.js';
import type { CachePlan, HttpCache } from '../../http-cache.js';
import { createLogger, type Logger, type LogLevel, resolveLogLevel } from '../../logger.js';
import type { HeadersInput, RequestOptions } from '../../operations.js';
import { onAbort } from './abort.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './env.js';
import { apiErrorFromResponse, createRequestContext } from './error-response.js';
import { sameOriginRedirect } from './redirect.js';
import { DEFAULT_MAX_RETRIES, decideRetry, type RetryPolicy, type RetryTrigger } from './retry.js';
import { sleep as defaultSleep, type Sleep, startDeadline } from './timers.js';

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
  /** Per-attempt timeout in ms, from sending until the whole body is read (default 60 000). */
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

type AttemptOutcome =
  | { buffered: BufferedResponse }
  | { failure: 'timeout' | 'connection' | 'too-large'; cause: unknown };

let neverAbortedSignal: AbortSignal | undefined;

/** The signal hooks see for calls that pass none: never aborts (made at first use, never at import). */
function neverAborted(): AbortSignal {
  neverAbortedSignal ??= new AbortController().signal;
  return neverAbortedSignal;
}

const NO_BYTES = new Uint8Array(0);

const noop = () => undefined;

/** Statuses whose responses cannot carry a body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Announced bodies above this size are read into one buffer of their size; smaller ones keep their chunks. */
const SIZED_BODY_MIN_BYTES = 64 * 1024;

/**
 * The transport of the service clients. Per attempt it runs `beforeRequest`, builds one `Request` (the body
 * is a string, so a retry sends it again), sends it under a timeout combined with the caller's signal, reads
 * the whole body (success or error) inside that timeout and under `maxResponseBytes`, and runs
 * `afterResponse`. Failed idempotent requests are retried per {@link decideRetry}; POST and PATCH never are.
 * Statuses ≥ 300 that are not retried or followed become the matching {@link APIError} subclass; network
 * failures become {@link APIConnectionError}, timeouts {@link APIConnectionTimeoutError}, oversized bodies
 * {@link ResponseTooLargeError}, caller aborts {@link APIUserAbortError} (at once, never retried). With
 * `cache`, GETs are answered by the {@link HttpCache} first; it sees the request with every header that is sent.
 */
export function createTransport(options: CreateFetchOptions = {}): Transport {
  const logLevel = resolveLogLevel({ level: options.logLevel, envVar: options.logEnvVar });
  const logger = createLogger({ sink: options.logger, level: logLevel, secrets: options.redactSecrets });
  const debug = logLevel === 'debug';
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const wait = options.sleep ?? defaultSleep;
  const now = options.now ?? (() => Date.now());
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const followRedirects = options.redirects !== 'none';
  const defaultHeaders = options.defaultHeaders ? [...new Headers(options.defaultHeaders)] : [];
  const { hooks = {} } = options;
  /** Whether any hook runs per attempt (else no hook context is built). */
  const needsContext = Boolean(options.beforeRequest || options.afterResponse || hooks.onRequest || hooks.onResponse);
  /** Whether a caller hook is handed the `Request` itself (else fetch gets URL and init and builds the only one). */
  const needsRequest = Boolean(hooks.onRequest || hooks.onResponse);

  const headersOf = (call: TransportCall): Headers => {
    const headers = call.headers instanceof Headers ? call.headers : new Headers(call.headers);
    for (const [name, value] of defaultHeaders) if (!headers.has(name)) headers.set(name, value);
    return headers;
  };

  /** What one attempt sends besides its URL; `source` carries method and headers. */
  const initFor = (source: RequestHead, body: string | undefined, signal: AbortSignal | undefined): RequestInit =>
    signal
      ? { method: source.method, headers: source.headers, body, signal, redirect: 'manual' }
      : { method: source.method, headers: source.headers, body, redirect: 'manual' };

  /**
   * One call through retries, in one `async` function (each layer of them costs a call about 1 % on loopback):
   * every attempt runs inline in the loop. `first` is the request as the cache saw it (headers, URL); `finish`, when
   * given, turns a successful answer into what the call returns (the cache's completion step).
   */
  const run = async (
    call: TransportCall,
    first: RequestHead,
    finish?: (buffered: BufferedResponse) => BufferedResponse | Promise<BufferedResponse>,
  ): Promise<BufferedResponse> => {
    const callerSignal = call.signal ?? undefined;
    const timeoutMs = call.timeout ?? options.timeout ?? DEFAULT_TIMEOUT_MS;
    const maxRetries = call.maxRetries ?? options.maxRetries ?? DEFAULT_MAX_RETRIES;
    /** The last request sent (or about to be): errors describe it. */
    let last: RequestHead = first;
    let context: RequestContext | undefined;
    const contextOf = (): RequestContext =>
      (context ??= createRequestContext(
        last instanceof Request ? last : new Request(last.url, { method: last.method, headers: last.headers }),
        call.operation,
        options.redactSecrets,
      ));
    const names = (): Pick<RequestContext, 'operation' | 'route'> => {
      const route = call.operation?.route ?? `${first.method} ${new URL(first.url).pathname}`;
      return { operation: call.operation?.id ?? route, route };
    };
    if (callerSignal?.aborted) throw new APIUserAbortError(names());

    for (let retriesSoFar = 0; ; retriesSoFar++) {
      const attempt = retriesSoFar + 1;
      // A signal on the request costs undici a follow per `Request` (listener, weak reference, finalisation
      // registration): the largest share of a call's own work. So the request carries one only when the caller
      // passed a signal; the timeout comes from the realm's shared clock and interrupts the waits below, and a
      // response that arrives after it is torn down at once (its body cancelled).
      if (callerSignal?.aborted) throw new APIUserAbortError(names());
      // Every request carries a signal: one that its attempt's timeout ends, so that a request still pending then
      // (a server that never answers) lets its socket go and leaves nothing keeping the process alive.
      const controller = new AbortController();
      let timedOut = false;
      let interrupted = false;
      let interruptReason: unknown;
      let rejectWait: ((reason: unknown) => void) | undefined;
      /** Cancels the body being read, so that the read below stops once the attempt is interrupted. */
      let cancelRead: (() => void) | undefined;
      const interrupt = (reason: unknown) => {
        if (interrupted) return;
        interrupted = true;
        interruptReason = reason;
        controller?.abort(reason);
        rejectWait?.(reason);
        cancelRead?.();
      };
      /** Settles like `promise`, or rejects as soon as the attempt is interrupted (a fetch may ignore the signal). */
      const guard = <T>(promise: Promise<T>): Promise<T> => {
        if (interrupted) {
          // The promise is dropped: whatever it comes to is not reported as unhandled.
          promise.catch(noop);
          return Promise.reject(interruptReason);
        }
        return new Promise<T>((resolve, reject) => {
          rejectWait = reject;
          promise.then(resolve, reject);
        });
      };
      const stopWatchingCaller = callerSignal ? onAbort(callerSignal, () => interrupt(callerSignal.reason)) : undefined;
      // Caller hooks are handed the exact `Request`; without them, fetch gets URL and init and builds the only one.
      // Hooks see the attempt's signal: the caller's abort and the attempt's timeout both end what they wait on (a
      // rate limiter's queue), so the timeout bounds the wait for a grant as well as the request.
      const hookContext: AttemptContext | undefined = needsContext
        ? { attempt, ...names(), signal: controller.signal }
        : undefined;
      let request = needsRequest ? new Request(first.url, initFor(first, call.body, controller.signal)) : undefined;
      let source: RequestHead = request ?? first;
      last = source;
      const stopDeadline = startDeadline(timeoutMs, () => {
        timedOut = true;
        interrupt(new Error('timeout'));
      });
      if (hookContext) {
        try {
          // A hook that does not wait returns no promise, and is not waited on (an `await` costs the call a step).
          const before = options.beforeRequest?.(source, hookContext);
          if (before) await guard(before);
          if (request) await hooks.onRequest?.(request, hookContext);
        } catch (error) {
          stopDeadline();
          stopWatchingCaller?.();
          if (callerSignal?.aborted) throw new APIUserAbortError(names());
          if (timedOut) throw new APIConnectionTimeoutError(contextOf(), timeoutMs);
          throw error;
        }
      }
      if (debug) logger.debug(`${first.method} ${first.url} (attempt ${attempt}, ${names().operation})`);
      const startedAt = debug ? now() : 0;
      /** What this attempt came to: an answer read whole, or why there is none. */
      let outcome: AttemptOutcome | undefined;
      let response: Response | undefined;
      let sent: Promise<Response> | undefined;
      try {
        sent = request ? baseFetch(request) : baseFetch(first.url, initFor(first, call.body, controller.signal));
        response = await guard(sent);
        for (let hops = 0; followRedirects && isRedirect(response) && hops < MAX_REDIRECTS; hops++) {
          const next = sameOriginRedirect(source, response);
          if (!next) break;
          // Not awaited: a body whose cancel never settles must not hold the call past its timeout.
          response.body?.cancel().catch(noop);
          const init = initFor(next, next.method === 'GET' ? undefined : call.body, controller.signal);
          request = needsRequest ? new Request(next.url, init) : undefined;
          source = request ?? next;
          last = source;
          sent = request ? baseFetch(request) : baseFetch(next.url, init);
          response = await guard(sent);
        }
        // Every body is read here, inside the timeout and under the size cap: a body that stalls, breaks off or
        // grows without end is a failure of this attempt, not a raw error or an unbounded buffer later.
        // The read is not wrapped in a guard: an interruption cancels the reader, which ends a pending read at once
        // (a stream's own cancel may never settle; the read does not wait for it).
        const stream = NULL_BODY_STATUSES.has(response.status) ? null : response.body;
        if (!stream) outcome = { buffered: { response, bytes: NO_BYTES } };
        else {
          // A body announced (uncompressed) past the cap is refused before anything is read.
          const declared = declaredLength(response, maxBytes);
          if (declared > maxBytes) {
            // Not awaited: a stream whose cancel never settles must not turn the refusal into a timeout.
            stream.cancel().catch(noop);
            throw new ResponseTooLargeError(response.url, maxBytes);
          }
          const reader = stream.getReader();
          const cancel = () => void reader.cancel().catch(noop);
          // Most bodies come as one chunk, kept as it is; a second one starts a buffer (see bodyBuffer).
          let firstChunk: Uint8Array | undefined;
          let buffer: BodyBuffer | undefined;
          try {
            if (interrupted) throw interruptReason;
            cancelRead = cancel;
            for (;;) {
              const { done, value } = await reader.read();
              if (interrupted) throw interruptReason;
              if (done) break;
              if (buffer) buffer.add(value);
              else if (firstChunk) {
                buffer = bodyBuffer(response, maxBytes, declared, firstChunk);
                buffer.add(value);
              } else if (value.byteLength > maxBytes) throw new ResponseTooLargeError(response.url, maxBytes);
              else firstChunk = value;
            }
          } catch (error) {
            cancel();
            throw error;
          }
          outcome = { buffered: { response, bytes: buffer ? buffer.bytes() : (firstChunk ?? NO_BYTES) } };
        }
      } catch (error) {
        // Interrupted before the response came: whenever it comes, its body is cancelled, freeing the connection.
        if (interrupted) sent?.then((late) => late.body?.cancel().catch(noop), noop);
        if (callerSignal?.aborted) throw new APIUserAbortError(names());
        outcome =
          error instanceof ResponseTooLargeError
            ? { failure: 'too-large', cause: error }
            : { failure: timedOut ? 'timeout' : 'connection', cause: error };
      } finally {
        stopDeadline();
        stopWatchingCaller?.();
      }
      if ('buffered' in outcome) {
        // The response itself carries status and headers (its body is spent); a copy is made only for whoever
        // reads the body again (hooks, validation, errors, the cache).
        const { buffered } = outcome;
        if (debug) logger.debug(`${buffered.response.status} from ${names().operation} in ${now() - startedAt} ms`);
        if (hookContext) {
          const after = options.afterResponse?.(buffered.response, source, hookContext);
          if (after) await after;
          if (hooks.onResponse) await hooks.onResponse(bufferedToResponse(buffered), hookContext);
        }
      }

      response = 'buffered' in outcome ? outcome.buffered.response : undefined;
      // A 304 answers a conditional request (the cache's revalidation); unsolicited, it is an error like any 3xx.
      // The request's headers are read only when a 304 comes.
      if (
        'buffered' in outcome &&
        response &&
        (response.status < 300 ||
          (response.status === 304 && (first.headers.has('if-none-match') || first.headers.has('if-modified-since'))))
      ) {
        const type = call.expectJson && response.status !== 204 ? response.headers.get('content-type') : null;
        if (type && !/[/+]json\b/i.test(type)) {
          const { operation, route } = names();
          throw new ResponseParseError(operation, route, `is not JSON as its spec says (got ${type.split(';')[0]})`);
        }
        if (options.validateResponse) {
          await options.validateResponse(bufferedToResponse(outcome.buffered), {
            attempt,
            ...names(),
            signal: callerSignal ?? neverAborted(),
          });
        }
        return finish ? finish(outcome.buffered) : outcome.buffered;
      }
      const trigger: RetryTrigger = response
        ? { kind: 'response', status: response.status, headers: response.headers }
        : { kind: 'failure' in outcome && outcome.failure !== 'too-large' ? outcome.failure : 'connection' };
      const decision =
        'failure' in outcome && outcome.failure === 'too-large'
          ? ({ retry: false, reason: 'the response is too large' } as const)
          : decideRetry({
              method: first.method,
              retriesSoFar,
              trigger,
              policy: { ...options.retryPolicy, maxRetries },
              now,
              random: options.random,
            });
      if (!decision.retry) {
        if (debug) logger.debug(`Not retrying ${names().operation}: ${decision.reason}`);
        if ('buffered' in outcome) throw await apiErrorFromResponse(bufferedToResponse(outcome.buffered), contextOf());
        if (outcome.failure === 'too-large') throw outcome.cause;
        if (outcome.failure === 'timeout') throw new APIConnectionTimeoutError(contextOf(), timeoutMs);
        throw new APIConnectionError(contextOf(), { cause: outcome.cause });
      }
      const reason = trigger.kind === 'response' ? `status ${trigger.status}` : trigger.kind;
      const { operation, route } = names();
      logger.info(
        `Retrying ${operation} after ${reason} in ${decision.delayMs} ms (retry ${attempt} of ${maxRetries})`,
      );
      await hooks.onRetry?.({
        attempt,
        operation,
        route,
        signal: callerSignal ?? neverAborted(),
        delayMs: decision.delayMs,
        reason,
      });
      try {
        await wait(decision.delayMs, callerSignal);
      } catch {
        throw new APIUserAbortError(names());
      }
    }
  };

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

function isRedirect(response: Response): boolean {
  return (
    response.status >= 301 && response.status <= 308 && response.status !== 304 && response.headers.has('location')
  );
}

/** A body being read past its first chunk: see {@link bodyBuffer}. */
interface BodyBuffer {
  /** Takes the next chunk; throws {@link ResponseTooLargeError} once the body passes the cap. */
  add(chunk: Uint8Array): void;
  /** Every byte taken, in one array. */
  bytes(): Uint8Array;
}

/**
 * The `content-length` of `response` when it tells the size of the body as read, else NaN. The length of a
 * compressed body says nothing of its decoded size, so `content-encoding` is looked up only when the length would
 * count: past the cap, or large enough to size a buffer by.
 */
function declaredLength(response: Response, maxBytes: number): number {
  const { headers } = response;
  const length = headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  return declared > Math.min(maxBytes, SIZED_BODY_MIN_BYTES) && headers.has('content-encoding') ? Number.NaN : declared;
}

/**
 * The rest of `response`'s body after its `first` chunk, counted against `maxBytes` (after any decompression)
 * whatever the headers say: a `fetch` given by the caller (or an interceptor) can announce 10 bytes and stream
 * without end, and no HTTP layer checks it then. A large announced body (`declared`, see {@link declaredLength})
 * goes straight into one buffer of its size: no chunk list, no second copy.
 */
function bodyBuffer(response: Response, maxBytes: number, declared: number, first: Uint8Array): BodyBuffer {
  const sized =
    Number.isInteger(declared) && declared > SIZED_BODY_MIN_BYTES && declared >= first.byteLength
      ? new Uint8Array(declared)
      : undefined;
  const chunks: Uint8Array[] = [];
  let inSized = 0;
  let total = 0;
  const buffer: BodyBuffer = {
    add(chunk) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new ResponseTooLargeError(response.url, maxBytes);
      if (sized && chunks.length === 0 && inSized + chunk.byteLength <= sized.byteLength) {
        sized.set(chunk, inSized);
        inSized += chunk.byteLength;
      } else chunks.push(chunk);
    },
    bytes() {
      // Past one chunk: the sized buffer alone, or everything joined (no single chunk is left to hand on as it is).
      if (sized && chunks.length === 0) return sized.subarray(0, inSized);
      const bytes = new Uint8Array(total);
      if (sized) bytes.set(sized.subarray(0, inSized));
      let offset = inSized;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return bytes;
    },
  };
  buffer.add(first);
  return buffer;
}
