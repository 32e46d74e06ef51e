/**
 * `StoreClient`: the store's REST API over the generated SDK and the shared runtime (retries, timeouts, typed
 * errors, redaction, logging, rate limiting, optional response validation).
 */
import type { ClientOptions, Paginator } from '@agent-apis/core';
import { ApiClient, bindOperations, readEnv } from '@agent-apis/core/service';
import type { StoreApi } from './api.js';
import {
  authHeaders,
  credentialOptions,
  credentialSecrets,
  resolveCredentials,
  type StoreCredentialOptions,
} from './auth.js';
import type * as functions from './gen/api.gen.js';
import { operations } from './gen/operations.gen.js';
import { resourceTable, type StoreResources } from './gen/resources.gen.js';
import { lazyProperty } from './lazy-property.js';
import { type PagedItem, type PagedOperationId, type PaginateArgs, paginateOperation } from './pagination.js';
import { checkRateLimitOptions } from './rate-limit-check.js';
import type { StoreRateLimitOptions } from './rate-limit-options.js';
import { defineResources } from './resources.js';

/**
 * The generated validators, loaded only when `validateResponses` is `true`, by the package's own entry name (a
 * self-reference, so it resolves from either layout of `dist/`). Not a literal in the `import()` on purpose: bundlers
 * leave the import alone rather than inlining zod behind lazy initialisers (see core's `ServiceTransport.loadValidators`).
 */
const VALIDATORS_MODULE = '@agent-apis/store/validators';

/** The spec's server. */
export const DEFAULT_BASE_URL = 'https://api.jumpseller.com/v1';

/** Environment variable that overrides the base URL. */
export const BASE_URL_ENV_VAR = 'STORE_BASE_URL';

/** Options of {@link StoreClient}. Credentials: `{ login, authToken }` or `{ accessToken }`, else the environment. */
export interface StoreClientOptions extends ClientOptions, StoreCredentialOptions {
  /** API root, ending in `/v1` unless a loopback mock (default: env `STORE_BASE_URL`, else `https://api.jumpseller.com/v1`). */
  baseUrl?: string | undefined;
  /**
   * Client-side request budget, shared by every client with the same base URL and credentials (default
   * 20/s and 800/min, the store's limits); `false` turns it off. With `redis` it is shared across processes
   * and machines (`key`, `workers`: see {@link StoreRateLimitOptions}).
   */
  rateLimit?: StoreRateLimitOptions | false | undefined;
}

/** The resource methods, defined by the constructor from the generated table (each made on first read). */
export interface StoreClient extends StoreResources {}

/**
 * A client of the store's REST API.
 *
 * - `api.<operationId>(options)`: every operation of the spec, typed, inputs validated before sending.
 * - `products.create({...})`, `products.variants.list(productId)`…: every operation under its resource
 *   (`StoreResources`); listings are lazy page walkers. `paginate(operationId)` walks any listing of `api`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor defines every resource of StoreResources.
export class StoreClient {
  /** Every operation of the spec, bound to this client (made on first read). */
  declare readonly api: StoreApi;
  /** The API root requests go to. */
  readonly baseUrl: string;
  /** The authentication scheme in use. */
  readonly authScheme: 'basic' | 'bearer';

  /** The configured client the operations are sent through, e.g. `getProduct(client.client, { path: { id } })`. */
  readonly client: ApiClient;

  /**
   * Throws a `MissingCredentialsError` naming the options and environment variables when credentials are
   * missing, an `InvalidBaseUrlError` for a base URL without http(s) scheme, with credentials or not ending in
   * `/v1`, and an `AgentApiError` for a credential holding a line break.
   */
  constructor(options: StoreClientOptions = {}) {
    this.client = createStoreClient(options);
    this.baseUrl = this.client.baseUrl;
    this.authScheme = resolveCredentials(options).scheme;
    // Made on first read: code that calls resource methods never binds the 179 operations.
    Object.defineProperty(
      this,
      'api',
      lazyProperty('api', (store: StoreClient) =>
        bindOperations<typeof functions, typeof operations>(operations, store.client),
      ),
    );
    defineResources(this, this.client, resourceTable);
  }

  /**
   * Every record of a page/limit listing, fetched lazily one page at a time (`limit` is the page size,
   * default 50, at most 100). Records keep the form the generated types give them.
   */
  paginate<Id extends PagedOperationId>(
    operationId: Id,
    ...[options]: PaginateArgs<Id>
  ): Paginator<PagedItem<Id>[], PagedItem<Id>> {
    return paginateOperation(this.client, operationId, options);
  }
}

/**
 * The store's configured client alone, without the `api` table: pass it to the operation functions imported one
 * by one (`getProduct(createStoreClient(), { path: { id } })`), so a bundle carries only the operations it uses.
 */
export function createStoreClient(options: StoreClientOptions = {}): ApiClient {
  const credentials = resolveCredentials(options);
  const baseUrl = options.baseUrl ?? readEnv(BASE_URL_ENV_VAR) ?? DEFAULT_BASE_URL;
  checkRateLimitOptions(options.rateLimit);
  // The options as checked now: the limiter built at the first call does not see later changes to them.
  const limiterOptions = { ...options, rateLimit: options.rateLimit && { ...options.rateLimit } };
  return new ApiClient(options, {
    client: 'StoreClient',
    baseUrl,
    basePathSuffix: '/v1',
    authHeaders: authHeaders(credentials),
    credentials: credentialOptions(credentials),
    loadValidators: () => import(VALIDATORS_MODULE),
    validatorsEntry: VALIDATORS_MODULE,
    redactSecrets: credentialSecrets(credentials),
    // The limiter and the ban guard load with the transport, at the first call.
    loadTransportOptions: () =>
      import('./rate-limit.js').then((module) =>
        module.storeTransportOptions(baseUrl, { credentials, secrets: credentialSecrets(credentials) }, limiterOptions),
      ),
  });
}
