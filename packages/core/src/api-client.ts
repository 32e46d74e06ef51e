/**
 * The one construction path of the service clients: base URL and credential checks at construction, then a
 * client that turns each typed operation call into one transport call (URL built from the descriptor, body
 * serialised once, JSON decided once) and parses the answer.
 */

import { onAbort } from './internal/call/abort.js';
import { checkBaseUrl, checkCredentials, checkedHeaders, isAbortSignal } from './internal/call/client-checks.js';
import type { ClientOptions, ServiceTransport } from './internal/call/client-options.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMER_MS } from './internal/call/env.js';
import { AgentApiError, APIUserAbortError, ConfigurationError } from './internal/call/errors.js';
import type * as CallPath from './internal/call/send-call.js';
import type { CreateFetchOptions, Transport } from './internal/call/transport.js';
import type { WithResponse } from './operations.js';
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
    this.baseUrl = checkBaseUrl(client, baseUrl, { suffix: basePathSuffix });
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
    // Read with care: the call's own check (at the load's end) refuses options that are no object and a signal that is none.
    const signal = isAbortSignal(options?.signal) ? options.signal : undefined;
    const aborted = () => new APIUserAbortError({ operation: operation.id, route: routeOf(operation) });
    if (signal?.aborted) return Promise.reject(aborted());
    if (!this.#loading) {
      this.#loading = (async () => {
        try {
          const [module, extras] = await Promise.all([
            import('./internal/call/send-call.js'),
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
    const timeoutMs = options?.timeout ?? this.#settings.options.timeout ?? DEFAULT_TIMEOUT_MS;
    // No timer for an infinite timeout (or one too long for setTimeout, which would fire at once), nor for one that
    // is not positive: the call's own check refuses a bad one, and a timeout of 0 is the request's to keep; one listener
    // per signal however many first calls share it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopWatching: (() => void) | undefined;
    return new Promise<LoadedCallPath>((resolve, reject) => {
      if (timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS) {
        const message = `${this.#settings.client} could not load its transport module within ${timeoutMs} ms`;
        timer = setTimeout(() => reject(new ConfigurationError(message)), timeoutMs);
      }
      stopWatching = signal && onAbort(signal, () => reject(aborted()));
      loading.then(resolve, reject);
    }).finally(() => {
      clearTimeout(timer);
      stopWatching?.();
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
