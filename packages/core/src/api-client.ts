/**
 * The one construction path of the service clients: base URL and credential checks at construction, then a
 * client that turns each typed operation call into one transport call (URL built from the descriptor, body
 * serialised once, JSON decided once) and parses the answer.
 */

import { onAbort } from './abort.js';
import type { WithResponse } from './api-promise.js';
import type * as CallPath from './call-path.js';
import type { ClientOptions, ServiceTransport } from './client-options.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMER_MS } from './env.js';
import type { CreateFetchOptions, Transport } from './fetch.js';
import { AgentApiError, APIUserAbortError, ConfigurationError, InvalidBaseUrlError } from './input-errors.js';
import { type Operation, type OperationCallOptions, type OperationClient, routeOf } from './operations.js';

/** What a service fixes when it builds its client. */
export interface ServiceClientConfig extends ServiceTransport {
  /** The class name, for error messages (e.g. `StoreClient`). */
  client: string;
  /** The base URL, already resolved from options, environment and default. */
  baseUrl: string;
  /** A path the base URL must end with, e.g. `/v1` for the store. */
  basePathSuffix?: string | undefined;
  /** Headers carrying the credentials, sent with every request (after the call's own headers). */
  authHeaders?: Readonly<Record<string, string>> | undefined;
  /** Credential values by option name, checked for characters no header can carry (the message never quotes them). */
  credentials?: Readonly<Record<string, string>> | undefined;
  /**
   * Transport options the service builds only when the client first sends (its rate limiter, its default cache):
   * loaded with the transport, so code that imports the client but never calls it does not carry them. Check the
   * options they come from at construction; this runs once, at the first call.
   */
  loadTransportOptions?: (() => Promise<LazyTransportOptions>) | undefined;
}

/** The call path once loaded: the input check and the built transport. */
interface LoadedCallPath {
  module: typeof CallPath;
  transport: Transport;
}

/** What a service's {@link ServiceClientConfig.loadTransportOptions} may add to its transport. */
export type LazyTransportOptions = Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse' | 'cache'>;

/**
 * `raw` as a base URL without trailing slash. Throws {@link InvalidBaseUrlError} when it does not parse, has
 * no http(s) scheme, carries credentials (`user:pass@`), or does not end with `suffix` (asked of non-loopback
 * hosts only: local mocks serve the spec's paths at their root).
 */
export function checkBaseUrl(client: string, raw: string, suffix?: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidBaseUrlError(
      `${client} baseUrl must be an absolute http(s) URL such as https://api.example.com${suffix ?? ''}, got ${JSON.stringify(shownUrl(raw))}`,
    );
  }
  if (url.username || url.password) {
    throw new InvalidBaseUrlError(
      `${client} baseUrl must not carry credentials (user:password@); pass them as the client's credential options`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidBaseUrlError(`${client} baseUrl must use http or https, got ${url.protocol}`);
  }
  const trimmed = url.href.replace(/\/+$/, '');
  if (url.search || url.hash) {
    throw new InvalidBaseUrlError(`${client} baseUrl must not have a query or fragment: ${shownUrl(trimmed)}`);
  }
  // Loopback mocks (Prism, stand-ins) serve the spec's paths at their root, so the suffix is asked of real hosts only.
  if (suffix && !isLoopback(url.hostname) && !url.pathname.replace(/\/+$/, '').endsWith(suffix)) {
    // A path holding `=`, `;` or `&` may carry a key: only the origin is shown then.
    const shown = /[;=&%@]/.test(url.pathname) ? `${url.origin}/…` : trimmed;
    throw new InvalidBaseUrlError(`${client} baseUrl must end with ${suffix} (the API root), got ${shown}`);
  }
  return trimmed;
}

/**
 * A base URL as an error may quote it: `user:password@` masked, and whatever follows `?` or `#` left out (a query
 * may carry a key); no redaction code is needed at construction.
 */
function shownUrl(raw: string): string {
  // Everything up to the last `@` is masked first (a password may hold `?`, `#` or `/`), then the query is cut.
  const masked = raw.replace(/\/\/.*@/, '//***@');
  const cut = masked.search(/[?#]/);
  return cut < 0 ? masked : `${masked.slice(0, cut)}${masked[cut]}…`;
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}

/** Throws when a credential holds CR, LF or NUL, which would break or smuggle headers; names the option only. */
function checkCredentials(client: string, credentials: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(credentials)) {
    if (/[\r\n\0]/.test(value)) {
      throw new AgentApiError(`${client} ${name} contains a line break or NUL character, which no header can carry`);
    }
  }
}

function checkedHeaders(client: string, headers: ClientOptions['defaultHeaders']): ClientOptions['defaultHeaders'] {
  if (headers === undefined) return undefined;
  try {
    return new Headers(headers);
  } catch {
    throw new AgentApiError(`${client} defaultHeaders holds a header name or value that cannot be sent`);
  }
}

/** A configured client of one service: sends typed operation calls. */
export class ApiClient implements OperationClient {
  /** The API root requests go to. */
  readonly baseUrl: string;
  /** What the call path needs of this client (checked here): the transport is built from it at the first call. */
  readonly #settings: CallPath.ClientCallSettings;
  readonly #loadTransportOptions: (() => Promise<LazyTransportOptions>) | undefined;
  #callPath: LoadedCallPath | undefined;
  #loading: Promise<LoadedCallPath> | undefined;

  /**
   * Checks the base URL, credentials and headers (throwing typed errors). The call path (the input check and the
   * transport: timeouts, retries, errors of answers, the service's limiter or cache) is a module of its own, loaded
   * and built at the first call.
   */
  constructor(options: ClientOptions, config: ServiceClientConfig) {
    const { client, baseUrl, basePathSuffix, authHeaders, credentials, loadTransportOptions, ...service } = config;
    this.baseUrl = checkBaseUrl(client, baseUrl, basePathSuffix);
    checkCredentials(client, credentials ?? {});
    const defaultHeaders = checkedHeaders(client, options.defaultHeaders);
    this.#settings = {
      client,
      baseUrl: this.baseUrl,
      basePath: basePathSuffix,
      authHeaders: Object.entries(authHeaders ?? {}),
      credentialed: Object.keys({ ...authHeaders, ...credentials }).length > 0,
      options: { ...options, defaultHeaders },
      service,
    };
    this.#loadTransportOptions = loadTransportOptions;
  }

  /**
   * The call path for a call that arrives before it is loaded. It is loaded and built once for every such call; a load
   * that fails is a {@link ConfigurationError} and is tried again at the next call. Each call waits within its own
   * bounds: its signal aborting gives an `APIUserAbortError`, its timeout passing a `ConfigurationError` (a chunk a
   * browser cannot fetch must not hold a call for ever).
   */
  #callPathWithin(operation: Operation, options: OperationCallOptions): Promise<LoadedCallPath> {
    const signal = options.signal;
    const aborted = () => new APIUserAbortError({ operation: operation.id, route: routeOf(operation) });
    if (signal?.aborted) return Promise.reject(aborted());
    if (!this.#loading) {
      this.#loading = (async () => {
        try {
          const [module, extras] = await Promise.all([
            import('./call-path.js'),
            // Called in a then: a loader that throws at once rejects this load like one that rejects later.
            Promise.resolve().then(() => this.#loadTransportOptions?.()),
          ]);
          // Built once what it needs has loaded too (a cache's engine), within the first call's signal and timeout;
          // the client's limits and plain-http credentials are checked first (a bad one fails every call, before sending).
          const transport = await module.clientTransport(this.#settings, extras);
          this.#callPath = { module, transport };
          return this.#callPath;
        } catch (cause) {
          this.#loading = undefined;
          throw cause instanceof AgentApiError
            ? cause
            : new ConfigurationError(`${this.#settings.client} could not load its transport module`, { cause });
        }
      })();
      // Each waiting call handles the failure; with none left waiting (all aborted), it is not unhandled.
      this.#loading.catch(noop);
    }
    const loading = this.#loading;
    const timeoutMs = options.timeout ?? this.#settings.options.timeout ?? DEFAULT_TIMEOUT_MS;
    return new Promise<LoadedCallPath>((resolve, reject) => {
      // No timer for an infinite timeout (or one too long for setTimeout, which would fire at once), nor for one that
      // is not positive: the call's own check refuses a bad one, and a timeout of 0 is the request's to keep; one listener
      // per signal however many first calls share it.
      const timer =
        timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS
          ? setTimeout(
              () =>
                fail(
                  new ConfigurationError(
                    `${this.#settings.client} could not load its transport module within ${timeoutMs} ms`,
                  ),
                ),
              timeoutMs,
            )
          : undefined;
      const stopWatching = signal && onAbort(signal, () => fail(aborted()));
      const settle = () => {
        clearTimeout(timer);
        stopWatching?.();
      };
      const fail = (error: unknown) => {
        settle();
        reject(error);
      };
      loading.then((loaded) => {
        settle();
        resolve(loaded);
      }, fail);
    });
  }

  /** Validates the inputs, sends the call and parses the answer: JSON per the descriptor, else by content type. */
  request(operation: Operation, options: OperationCallOptions = {}): Promise<WithResponse<unknown>> {
    const loaded = this.#callPath;
    if (loaded) return loaded.module.sendCall(this.#settings, loaded.transport, operation, options);
    return this.#callPathWithin(operation, options).then(({ module, transport }) =>
      module.sendCall(this.#settings, transport, operation, options),
    );
  }
}

function noop(): void {}
