/**
 * `StoreClient`: the store's REST API over the generated SDK and the shared runtime (retries, timeouts, typed
 * errors, redaction, logging, rate limiting, optional response validation).
 */
import {
  bindOperations,
  createFetch,
  type Logger,
  type LogLevel,
  operationMatcher,
  type Paginator,
  rateLimitHooks,
  schemaResponseValidator,
} from '@agent-apis/core';
import type { StoreApi, StoreOperationResult } from './api.js';
import {
  authCallback,
  credentialIdentity,
  credentialSecrets,
  resolveCredentials,
  type StoreCredentialOptions,
} from './auth.js';
import { readEnv } from './env.js';
import { operations } from './gen/operations.gen.js';
import { createClient, createConfig } from './gen/sdk/client/index.gen.js';
import * as sdk from './gen/sdk/sdk.gen.js';
import type { OperationValidators } from './gen/validators.gen.js';
import {
  type ListMethod,
  type PagedItem,
  type PagedOperationId,
  type PaginateArgs,
  type PaginateOptions,
  paginateOperation,
} from './pagination.js';
import { rateLimitWindows, type StoreRateLimitOptions, storeRateLimiter, storeRateLimitReader } from './rate-limit.js';

/** The spec's server. */
export const DEFAULT_BASE_URL = 'https://api.jumpseller.com/v1';

/** Environment variable that overrides the base URL. */
export const BASE_URL_ENV_VAR = 'STORE_BASE_URL';

/** Environment variable holding the log level. */
export const LOG_ENV_VAR = 'AGENT_APIS_LOG';

/** Options of {@link StoreClient}. Credentials: `{ login, authToken }` or `{ accessToken }`, else the environment. */
export interface StoreClientOptions extends StoreCredentialOptions {
  /** API root, ending in `/v1` (default: env `STORE_BASE_URL`, else `https://api.jumpseller.com/v1`). */
  baseUrl?: string;
  /** The `fetch` to send requests with (default `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch;
  /** Per-attempt timeout in ms (default 60 000). */
  timeout?: number;
  /** Retries of idempotent requests after the first attempt (default 2). */
  maxRetries?: number;
  /** Headers sent with every request that does not set them itself. */
  defaultHeaders?: HeadersInit;
  /** Destination of log lines (default `console`); lines are redacted first. */
  logger?: Logger;
  /** Log level (default: env `AGENT_APIS_LOG`, else `off`). */
  logLevel?: LogLevel;
  /** Check every successful JSON response against the spec's zod schema (default false). */
  validateResponses?: boolean;
  /**
   * Client-side request budget, shared by every client with the same base URL and credentials (default
   * 20/s and 800/min, the store's limits); `false` turns it off.
   */
  rateLimit?: StoreRateLimitOptions | false;
}

/** Success-response schema of an operation, loaded on first use so zod stays out of bundles that never validate. */
async function responseSchemaFor(operation: string) {
  const { validators }: { validators: Readonly<Record<string, OperationValidators>> } = await import(
    './gen/validators.gen.js'
  );
  return Object.hasOwn(validators, operation) ? validators[operation]?.response : undefined;
}

/**
 * A client of the store's REST API.
 *
 * - `api.<operationId>(options)`: every operation of the spec, typed, inputs validated before sending.
 * - `products.list()`, `orders.list()`, `customers.list()` and `paginate(operationId)`: lazy page walkers.
 */
export class StoreClient {
  /** Every operation of the spec, bound to this client. */
  readonly api: StoreApi;
  /** The API root requests go to. */
  readonly baseUrl: string;
  /** The authentication scheme in use. */
  readonly authScheme: 'basic' | 'bearer';

  /** Products, in the form the API lists them: `{ product: {...} }`. */
  readonly products = { list: this.#lister('listProducts') };
  /** Orders, listed as `{ order: {...} }`. */
  readonly orders = { list: this.#lister('listOrders') };
  /** Customers, listed as `{ customer: {...} }`. */
  readonly customers = { list: this.#lister('listCustomers') };
  /** Categories, page by page (`categories.list().toArray({ max })` or `for await`). */
  readonly categories = { list: this.#lister('listCategories') };

  /** Throws an `AgentApiError` naming the options and environment variables when credentials are missing. */
  constructor(options: StoreClientOptions = {}) {
    const credentials = resolveCredentials(options);
    this.authScheme = credentials.scheme;
    this.baseUrl = (options.baseUrl ?? readEnv(BASE_URL_ENV_VAR) ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const windows = options.rateLimit === false ? undefined : rateLimitWindows(options.rateLimit);
    const limiter = windows && storeRateLimiter(this.baseUrl, credentialIdentity(credentials), windows);
    const transport = createFetch({
      fetch: options.fetch,
      timeout: options.timeout,
      maxRetries: options.maxRetries,
      defaultHeaders: options.defaultHeaders,
      logger: options.logger,
      logLevel: options.logLevel,
      logEnvVar: LOG_ENV_VAR,
      redactSecrets: credentialSecrets(credentials),
      operationFor: operationMatcher(operations),
      validateResponse: options.validateResponses ? schemaResponseValidator(responseSchemaFor) : undefined,
      ...(limiter && windows ? rateLimitHooks(limiter, storeRateLimitReader(windows)) : {}),
    });
    const client = createClient(
      createConfig({ baseUrl: this.baseUrl, fetch: transport, throwOnError: true, auth: authCallback(credentials) }),
    );
    this.api = bindOperations(sdk, operations, client) as StoreApi;
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

  #lister<Id extends PagedOperationId>(operationId: Id): ListMethod<Id> {
    return (filters, options) =>
      paginateOperation(this.api, operationId, { ...options, query: filters } as PaginateOptions<Id>);
  }
}
