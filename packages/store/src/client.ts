/**
 * `StoreClient`: the store's REST API over the generated SDK and the shared runtime (retries, timeouts, typed
 * errors, redaction, logging, rate limiting, optional response validation).
 */
import {
  bindOperations,
  type ClientOptions,
  clientFetchOptions,
  createFetch,
  type Paginator,
  rateLimitHooks,
  readEnv,
} from '@agent-apis/core';
import type { StoreApi, StoreOperationResult } from './api.js';
import {
  authCallback,
  credentialIdentity,
  credentialSecrets,
  resolveCredentials,
  type StoreCredentialOptions,
} from './auth.js';
import { operations } from './gen/operations.gen.js';
import { resourceTable, type StoreResources } from './gen/resources.gen.js';
import { createClient, createConfig } from './gen/sdk/client/index.gen.js';
import * as sdk from './gen/sdk/sdk.gen.js';
import { type PagedItem, type PagedOperationId, type PaginateArgs, paginateOperation } from './pagination.js';
import {
  rateLimitWindows,
  readStoreRateLimitHeaders,
  type StoreRateLimitOptions,
  storeRateLimiter,
} from './rate-limit.js';
import { bindResources } from './resources.js';

/** The spec's server. */
export const DEFAULT_BASE_URL = 'https://api.jumpseller.com/v1';

/** Environment variable that overrides the base URL. */
export const BASE_URL_ENV_VAR = 'STORE_BASE_URL';

/** Options of {@link StoreClient}. Credentials: `{ login, authToken }` or `{ accessToken }`, else the environment. */
export interface StoreClientOptions extends ClientOptions, StoreCredentialOptions {
  /** API root, ending in `/v1` (default: env `STORE_BASE_URL`, else `https://api.jumpseller.com/v1`). */
  baseUrl?: string | undefined;
  /**
   * Client-side request budget, shared by every client with the same base URL and credentials (default
   * 20/s and 800/min, the store's limits); `false` turns it off.
   */
  rateLimit?: StoreRateLimitOptions | false | undefined;
}

/** The resource methods, assigned by the constructor from the generated table. */
export interface StoreClient extends StoreResources {}

/**
 * A client of the store's REST API.
 *
 * - `api.<operationId>(options)`: every operation of the spec, typed, inputs validated before sending.
 * - `products.create({...})`, `products.variants.list(productId)`…: every operation under its resource
 *   (`StoreResources`); listings are lazy page walkers. `paginate(operationId)` walks any listing of `api`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor assigns every resource of StoreResources.
export class StoreClient {
  /** Every operation of the spec, bound to this client. */
  readonly api: StoreApi;
  /** The API root requests go to. */
  readonly baseUrl: string;
  /** The authentication scheme in use. */
  readonly authScheme: 'basic' | 'bearer';

  /** Throws a `MissingCredentialsError` naming the options and environment variables when credentials are missing. */
  constructor(options: StoreClientOptions = {}) {
    const credentials = resolveCredentials(options);
    this.authScheme = credentials.scheme;
    this.baseUrl = (options.baseUrl ?? readEnv(BASE_URL_ENV_VAR) ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const limiter =
      options.rateLimit === false
        ? undefined
        : storeRateLimiter(this.baseUrl, credentialIdentity(credentials), rateLimitWindows(options.rateLimit));
    const transport = createFetch(
      clientFetchOptions(options, {
        operations,
        loadValidators: () => import('./gen/validators.gen.js'),
        redactSecrets: credentialSecrets(credentials),
        ...(limiter ? rateLimitHooks(limiter, readStoreRateLimitHeaders) : {}),
      }),
    );
    const client = createClient(
      createConfig({ baseUrl: this.baseUrl, fetch: transport, throwOnError: true, auth: authCallback(credentials) }),
    );
    this.api = bindOperations(sdk, operations, client);
    Object.assign(this, bindResources(this.api, resourceTable));
  }

  /**
   * Every record of a page/limit listing, fetched lazily one page at a time (`limit` is the page size,
   * default 50, at most 100). Records keep the form the generated types give them.
   */
  paginate<Id extends PagedOperationId>(
    operationId: Id,
    ...[options]: PaginateArgs<Id>
  ): Paginator<StoreOperationResult<Id>, PagedItem<Id>> {
    return paginateOperation(this.api, operationId, options);
  }
}
