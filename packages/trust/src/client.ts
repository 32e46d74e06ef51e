/**
 * The trust-decision client: every operation of the spec under `api`, plus `decide` with defaults, helpers and
 * a decision cache, and guards that enforce a decision before an agent fetches a URL.
 */
import type { ClientOptions, RedisClientLike, RequestOptions, WithResponse } from '@agent-apis/core';
import {
  AgentApiError,
  APIUserAbortError,
  ApiPromise,
  ConfigurationError,
  LOG_ENV_VAR,
  MissingCredentialsError,
  RequestValidationError,
} from '@agent-apis/core';
import type { BoundOperations } from '@agent-apis/core/service';
import {
  ApiClient,
  assertRedisClient,
  bindOperations,
  DEFAULT_TIMEOUT_MS,
  isCredentialHeader,
  raceWithSignal,
  readEnv,
  redirectHop,
  routeOf,
} from '@agent-apis/core/service';
import {
  assertValidDecideRequest,
  type CompleteDecideRequest,
  type DecideContext,
  type DecideInput,
  decisionCacheKey,
  toDecideRequest,
} from './decide-request.js';
import { TrustDecision } from './decision.js';
import { DecisionCache } from './decision-cache.js';
import type { SharedDecisions } from './decision-cache-redis.js';
import type * as functions from './gen/api.gen.js';
import { type OperationId, operations } from './gen/operations.gen.js';
import {
  type ActionHandlers,
  enforceDecision,
  type GuardContext,
  type GuardedFetchOptions,
  type GuardOptions,
  TrustUnavailableError,
} from './guard.js';
import { withinTimeout } from './within-timeout.js';

/**
 * The generated validators, loaded only when `validateResponses` is `true`, by the package's own entry name (a
 * self-reference, so it resolves from either layout of `dist/`). Not a literal in the `import()` on purpose: bundlers
 * leave the import alone rather than inlining zod behind lazy initialisers (see core's `ServiceTransport.loadValidators`).
 */
const VALIDATORS_MODULE = '@agent-apis/trust/validators';

/** Redirect hops `guardedFetch` follows, each decided on. */
const MAX_GUARDED_REDIRECTS = 10;

/**
 * The next request of a redirect chain (core's redirect rule), or undefined when `response` is no redirect or
 * cannot be followed (a 307/308 of a request with a body, whose stream is spent). No credential header (core's
 * one list: `Authorization`, `Cookie`, `X-API-Key`, `Proxy-Authorization`, any `*token*`, `*key*`, …) crosses to
 * another origin; a hop within the origin keeps every header.
 */
function redirectTarget(request: Request, response: Response): Request | undefined {
  const hop = redirectHop(request.method, request.url, response);
  if (!hop || (!hop.toGet && request.body !== null)) return undefined;
  const headers = new Headers(request.headers);
  if (!hop.sameOrigin) for (const name of [...headers.keys()]) if (isCredentialHeader(name)) headers.delete(name);
  if (hop.toGet) headers.delete('content-type');
  return new Request(hop.url, { method: hop.method, headers, redirect: 'manual', signal: request.signal });
}

/** The server every official SDK uses. */
export const DEFAULT_BASE_URL = 'https://entropy0.ai/api';
/** Environment variable read when `apiKey` is not given. */
export const API_KEY_ENV_VAR = 'ENTROPY0_API_KEY';
/** Environment variable read when `baseUrl` is not given. */
export const BASE_URL_ENV_VAR = 'TRUST_BASE_URL';
/** @deprecated Use {@link API_KEY_ENV_VAR} (every package names environment variables `*_ENV_VAR`). */
export const API_KEY_ENV = API_KEY_ENV_VAR;
/** @deprecated Use {@link BASE_URL_ENV_VAR}. */
export const BASE_URL_ENV = BASE_URL_ENV_VAR;
/** @deprecated Use `LOG_ENV_VAR`, the variable every client reads its log level from. */
export const LOG_LEVEL_ENV = LOG_ENV_VAR;

/** Options of {@link TrustClient}. */
export interface TrustClientOptions extends ClientOptions {
  /** API key (`sk_ent0_…`); default: the `ENTROPY0_API_KEY` environment variable. Required one way or the other. */
  apiKey?: string | undefined;
  /** How the key is sent: `X-API-Key` header (`'api-key'`, default) or `Authorization: Bearer` (`'bearer'`). */
  authScheme?: 'api-key' | 'bearer' | undefined;
  /** Default: the `TRUST_BASE_URL` environment variable, else `https://entropy0.ai/api`. */
  baseUrl?: string | undefined;
  /** Retries for idempotent requests (default 2). Every trust operation is a POST, which is never retried. */
  maxRetries?: number | undefined;
  /**
   * Reuse decisions until their validity window ends and share concurrent identical calls (default `true`), each
   * waiting at most its own timeout; `maxEntries` (a whole number ≥ 1, default 1 000) bounds the decisions kept.
   */
  cache?: boolean | { maxEntries?: number | undefined } | undefined;
  /** Clock in ms, for the decision cache and `Retry-After` dates (default `Date.now`). */
  now?: (() => number) | undefined;
  /**
   * Decisions shared by a fleet: with a connected node-redis client (`redis` v5 or later), every client with the
   * same API key and base URL, in any process, scans a target and context once per validity window; concurrent
   * askers wait for one answer. Entries are keyed by a hash of key, target and context and signed with the key;
   * when Redis is unavailable the client falls back to its in-process cache (see "Running a fleet").
   */
  decisionCache?: { redis: RedisClientLike } | undefined;
}

/** `client.api`: every operation of the spec by operationId, resolving with the response body. */
export type TrustApi = BoundOperations<typeof functions, OperationId>;

/** Client of the Entropy0 trust-decision API. */
export class TrustClient {
  /** Every operation of the spec, bound to this client's configuration, with typed inputs and results. */
  readonly api: TrustApi;
  /** The server requests go to. */
  readonly baseUrl: string;
  readonly #decisions: DecisionCache<WithResponse<TrustDecision>> | undefined;
  readonly #shared: Pick<SharedDecisions, 'get'> | undefined;
  /** The configured client, for decide bodies {@link toDecideRequest} has already checked (no second check). */
  readonly #client: ApiClient;
  /** The client's timeout, which also bounds a wait for another process's decision. */
  readonly #timeout: number | undefined;

  constructor(options: TrustClientOptions = {}) {
    const client = createTrustClient(options);
    this.#timeout = options.timeout;
    this.baseUrl = client.baseUrl;
    const bound = bindOperations<typeof functions, typeof operations>(operations, client);
    const decide: TrustApi['decide'] = (callOptions) => {
      try {
        assertValidDecideRequest(callOptions.body);
      } catch (error) {
        return new ApiPromise(Promise.reject(error));
      }
      return bound.decide(callOptions);
    };
    this.#client = client;
    this.api = { ...bound, decide };
    this.#shared = sharedDecisions(options, this.baseUrl);
    const cache = options.cache ?? true;
    this.#decisions = cache
      ? new DecisionCache<WithResponse<TrustDecision>>({
          maxEntries: cache === true ? undefined : cache.maxEntries,
          now: options.now,
          decisionOf: (answer) => answer.data,
        })
      : undefined;
  }

  /**
   * The decision for a target. `decide('example.com')` uses the defaults of the official SDKs (fetch /
   * read_only / medium, balanced); a value starting with `http://` or `https://` is sent as a `url` target.
   * `decide({ target, interaction, policy, options })` sets any of them; omitted fields take the same defaults.
   * Decisions are reused until their validity window ends (unless `cache: false`); `.withResponse()` then gives
   * the response the decision came with.
   */
  decide(target: string, context?: DecideContext, options?: RequestOptions): ApiPromise<TrustDecision>;
  decide(input: DecideInput, options?: RequestOptions): ApiPromise<TrustDecision>;
  decide(
    input: DecideInput | string,
    contextOrOptions?: DecideContext | RequestOptions,
    lastOptions?: RequestOptions,
  ): ApiPromise<TrustDecision> {
    return new ApiPromise(this.#decide(input, contextOrOptions, lastOptions));
  }

  /** Not an `async` function: the promise of the call is handed on as it is, without one around it. */
  #decide(
    input: DecideInput | string,
    contextOrOptions?: DecideContext | RequestOptions,
    lastOptions?: RequestOptions,
  ): Promise<WithResponse<TrustDecision>> {
    const context = typeof input === 'string' ? (contextOrOptions as DecideContext | undefined) : undefined;
    const options = (typeof input === 'string' ? lastOptions : (contextOrOptions as RequestOptions)) ?? {};
    try {
      // Checked here once: #send passes the body to the bound operation, which does not check it again.
      const request = toDecideRequest(input, context);
      if (!this.#decisions && !this.#shared) return this.#send(request, options);
      // A cached or shared call is not this caller's to abort: the signal only stops this caller's wait.
      const { signal, ...sendOptions } = options;
      const key = decisionCacheKey(request);
      const send = () => this.#send(request, sendOptions);
      const fleet = this.#shared;
      // Waiting for another process's answer, or for another caller's request in flight, counts against this call's
      // timeout.
      const waitMs = sendOptions.timeout ?? this.#timeout;
      const load = fleet ? () => viaFleet(fleet, key, send, waitMs) : send;
      const shared = this.#decisions
        ? this.#decisions.get(key, load, (pending) => this.#joined(pending, waitMs))
        : load();
      if (!signal) return shared;
      return raceWithSignal(shared, signal).catch((error: unknown) => {
        throw signal.aborted
          ? new APIUserAbortError({ operation: 'decide', route: routeOf(operations.decide) })
          : error;
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Decides on the host of `url` and enforces the action before the agent contacts it: resolves with the
   * decision for `proceed` / `proceed_with_caution`, runs `onSandbox` / `onEscalate` (throwing
   * `TrustSandboxRequiredError` / `TrustEscalationRequiredError` without them), throws `TrustDeniedError` for
   * `deny`. If the service fails it throws `TrustUnavailableError`, or resolves with `undefined` under `failOpen`.
   */
  guard(url: string | URL, options: GuardOptions & { failOpen: true }): Promise<TrustDecision | undefined>;
  guard(url: string | URL, options?: GuardOptions & { failOpen?: false | undefined }): Promise<TrustDecision>;
  guard(url: string | URL, options?: GuardOptions): Promise<TrustDecision | undefined>;
  async guard(url: string | URL, options: GuardOptions = {}): Promise<TrustDecision | undefined> {
    const target = guardTarget(url);
    const { headers, signal, timeout, maxRetries } = options;
    const decision = await this.#decideForGuard(target, options, { headers, signal, timeout, maxRetries });
    if (!decision) return undefined;
    const thenProceed = (handler: GuardOptions['onSandbox']) =>
      handler &&
      (async (found: TrustDecision) => {
        await handler(found, target);
        return found;
      });
    const handlers: ActionHandlers<TrustDecision> = {
      onSandbox: thenProceed(options.onSandbox),
      onEscalate: thenProceed(options.onEscalate),
    };
    return enforceDecision(decision, target, handlers, () => decision);
  }

  /**
   * `fetch` behind a guard: every request first gets a decision on its URL's host (see {@link TrustClient.guard});
   * `fetch` only runs when the action allows it, and `onSandbox` / `onEscalate` answer in its place. Redirects
   * are followed here, hop by hop, so every host of a redirect chain gets its own decision (at most 10 hops;
   * every credential header, `Authorization`, `Cookie`, `X-API-Key` and the like, is dropped when a hop changes
   * origin). A request with `redirect: 'manual'` or `'error'` gets the redirect response itself.
   */
  guardedFetch(fetch: typeof globalThis.fetch, options: GuardedFetchOptions = {}): typeof globalThis.fetch {
    const { onSandbox, onEscalate } = options;
    const guardOne = async (request: Request): Promise<Response> => {
      const target = new URL(request.url);
      const decision = await this.#decideForGuard(target, options);
      if (!decision) return fetch(request);
      const handlers: ActionHandlers<Response> = {
        onSandbox: onSandbox && ((found) => onSandbox(found, request)),
        onEscalate: onEscalate && ((found) => onEscalate(found, request)),
      };
      return enforceDecision(decision, target, handlers, () => fetch(request));
    };
    return async (input, init) => {
      const original = new Request(input, init);
      if (original.redirect !== 'follow') return guardOne(original);
      let request = new Request(original, { redirect: 'manual' });
      for (let hops = 0; ; hops++) {
        const response = await guardOne(request);
        const next = hops < MAX_GUARDED_REDIRECTS ? redirectTarget(request, response) : undefined;
        if (!next) return response;
        await response.body?.cancel().catch(() => undefined);
        request = next;
      }
    };
  }

  /**
   * A call's wait for another caller's request in flight for the same decision: that request runs under the other
   * caller's timeout, so this call's own (else the client's) ends the wait, with the transport's timeout error.
   */
  #joined(
    pending: Promise<WithResponse<TrustDecision>>,
    timeoutMs: number | undefined,
  ): Promise<WithResponse<TrustDecision>> {
    const ms = timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timedOut = () =>
      import('./decide-timeout.js').then(
        (module): Error => module.decideTimeoutError(this.baseUrl, ms),
        (cause: unknown) => new ConfigurationError('TrustClient could not load its decide-timeout module', { cause }),
      );
    return withinTimeout(pending, ms, timedOut);
  }

  #send(body: CompleteDecideRequest, options: RequestOptions): Promise<WithResponse<TrustDecision>> {
    // Straight to the client: no promise of the data around the call, only the answer the decision is made from.
    const answer = this.#client.request(operations.decide, { ...options, body }) as Promise<
      WithResponse<ConstructorParameters<typeof TrustDecision>[0]>
    >;
    return answer.then(({ data, response }) => ({ data: new TrustDecision(data), response }));
  }

  /** The decision on `url`'s host; a service failure becomes TrustUnavailableError, or undefined under failOpen. */
  async #decideForGuard(url: URL, context: GuardContext, options?: RequestOptions): Promise<TrustDecision | undefined> {
    try {
      return await this.decide(
        { target: { type: 'domain', value: url.hostname }, interaction: context.interaction, policy: context.policy },
        options,
      );
    } catch (error) {
      // A client that cannot work as configured (its call path did not load) is no outage to fail open on.
      if (
        error instanceof RequestValidationError ||
        error instanceof APIUserAbortError ||
        error instanceof ConfigurationError
      )
        throw error;
      if (context.failOpen) return undefined;
      throw new TrustUnavailableError(url, error);
    }
  }
}

/**
 * `send`'s answer through the fleet's shared decisions: the decision another process stored, or the one this
 * process got (then shared). A decision from the fleet comes with a response rebuilt from it.
 */
async function viaFleet(
  fleet: Pick<SharedDecisions, 'get'>,
  key: string,
  send: () => Promise<WithResponse<TrustDecision>>,
  waitMs: number | undefined,
): Promise<WithResponse<TrustDecision>> {
  let sent: WithResponse<TrustDecision> | undefined;
  const { decision } = await fleet.get(
    key,
    async () => {
      sent = await send();
      return sent.data;
    },
    waitMs,
  );
  if (sent && sent.data === decision) return sent;
  const response = new Response(JSON.stringify(decision.result), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
  return { data: decision, response };
}

/** The fleet's decision cache of `options.decisionCache`, checked before any request. */
function sharedDecisions(options: TrustClientOptions, baseUrl: string): Pick<SharedDecisions, 'get'> | undefined {
  const { decisionCache } = options;
  if (decisionCache === undefined) return undefined;
  if (typeof decisionCache !== 'object' || decisionCache === null) {
    throw new AgentApiError('TrustClient decisionCache must be an object such as { redis }');
  }
  assertRedisClient('TrustClient decisionCache.redis', decisionCache.redis);
  const apiKey = options.apiKey ?? readEnv(API_KEY_ENV_VAR) ?? '';
  // Everything is taken from the options now, as at construction; only the logger is built once the module loads.
  const { redis } = decisionCache;
  const { logger: sink, logLevel, now } = options;
  const envLogLevel = readEnv(LOG_ENV_VAR);
  // Loaded on first use: bundles that never share decisions do not carry it, nor the logger it warns through.
  const shared = import('./decision-cache-redis.js').then(
    (module) =>
      new module.SharedDecisions({
        redis,
        apiKey,
        baseUrl,
        // A Redis outage is worth a warning even when no log level is set; `logLevel: 'off'` silences it.
        logger: module.createLogger({
          sink,
          level: logLevel ?? module.parseLogLevel(envLogLevel) ?? 'warn',
          secrets: [apiKey],
        }),
        now,
      }),
  );
  return { get: (key, load, waitMs) => shared.then((decisions) => decisions.get(key, load, waitMs)) };
}

/**
 * The trust service's configured client alone, for the operation functions imported one by one
 * (`decide(createTrustClient(), { body })`, no request checks or decision cache). Throws
 * `MissingCredentialsError` without a key.
 */
export function createTrustClient(options: TrustClientOptions = {}): ApiClient {
  const apiKey = options.apiKey ?? readEnv(API_KEY_ENV_VAR);
  if (!apiKey) {
    throw new MissingCredentialsError({ client: 'TrustClient', options: ['apiKey'], envVars: [API_KEY_ENV_VAR] });
  }
  return new ApiClient(options, {
    client: 'TrustClient',
    baseUrl: options.baseUrl ?? readEnv(BASE_URL_ENV_VAR) ?? DEFAULT_BASE_URL,
    // The API lives under /api: a real host's base URL must end with it, and a 404 from one without it says so.
    basePathSuffix: '/api',
    authHeaders: options.authScheme === 'bearer' ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': apiKey },
    credentials: { apiKey },
    loadValidators: () => import(VALIDATORS_MODULE),
    validatorsEntry: VALIDATORS_MODULE,
    redactSecrets: [apiKey],
    // A redirect would carry the key elsewhere or swap the decision for another origin's: none is followed.
    redirects: 'none',
    now: options.now,
  });
}

/** `url` parsed; a value that is no absolute URL is refused with a {@link RequestValidationError} naming `url`. */
function guardTarget(url: string | URL): URL {
  if (url instanceof URL) return url;
  const parsed = typeof url === 'string' && URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) {
    const shown = typeof url === 'string' ? JSON.stringify(url.length > 60 ? `${url.slice(0, 60)}…` : url) : typeof url;
    throw new RequestValidationError({
      operation: 'guard',
      field: 'url',
      reason: `must be an absolute URL such as https://example.com/page, got ${shown}`,
    });
  }
  return parsed;
}
