/**
 * Operations as the runtime sees them: the descriptor codegen emits for each one, the checks of a call's inputs
 * against it before anything is sent, and how its URL is built.
 */
import { ApiPromise, type WithResponse } from './api-promise.js';
import type { OperationInfo } from './errors.js';
import type { RequestOptions as TransportOptions } from './fetch.js';
import type { HeadersInput } from './fetch-types.js';
import { ResponseParseError } from './input-errors.js';
import { type CursorScheme, type Paginator, pageNumberCursor, paginate } from './pagination.js';

/** How the runtime checks one query parameter (the shape `operations.gen.ts` emits). */
export interface QueryConstraint {
  /** Left out when false. */
  readonly required?: boolean;
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'unknown';
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  /** For arrays: `false` sends `name=a,b`; otherwise (default) `name=a&name=b`. */
  readonly explode?: boolean;
  /** The spec's default, used by the clients where they must send a value (a listing's page size). */
  readonly default?: unknown;
}

/** The HTTP methods an OpenAPI operation can have, as the generated table spells them. */
export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';

/** What the runtime reads of an operation to build, check and name one call. */
export interface OperationShape {
  readonly method: string;
  readonly path: string;
  /** Path template variables in template order; generated descriptors leave out empty fields. */
  readonly pathParams?: readonly string[];
  /** Type, enum and range of each path parameter, checked like query parameters. */
  readonly pathTypes?: Readonly<Record<string, QueryConstraint>>;
  readonly query?: Readonly<Record<string, QueryConstraint>>;
  /** Whether the operation takes a request body at all (left out when it does not). */
  readonly hasBody?: boolean;
  readonly bodyRequired?: boolean;
  /**
   * Required body properties as dotted paths (`product.name`): each must be present whenever the object holding
   * it is (generated for POST bodies).
   */
  readonly requiredBodyFields?: readonly string[];
  /**
   * Whether the success response is JSON: a text answer is then refused instead of returned as data. Left out
   * (generated descriptors leave it out when true) it means JSON; only `false` lets text through as data.
   */
  readonly successJson?: boolean;
}

/**
 * One row of the operation table: the type each generated `operations.gen.ts` row `satisfies`. Codegen writes
 * the rows; the clients, the bound `api` and the per-operation functions all send a call by passing its row to
 * {@link OperationClient.request}.
 */
export interface Operation extends OperationShape {
  readonly id: string;
  readonly method: HttpMethod;
}

/** The inputs of one SDK call, as the generated functions take them. */
export interface OperationInput {
  path?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Names the operation a request belongs to, from its method and URL path: `{ id, route }`, for code that sees
 * raw requests (test servers, benchmarks). A template matches at the end of the URL path, so any base path
 * (`/v1`, `/api`) in front of it is fine; literal paths win over templated ones.
 */
export function operationMatcher(
  operations: Readonly<Record<string, Pick<OperationShape, 'method' | 'path'>>>,
): (request: Request) => OperationInfo | undefined {
  const routes = Object.entries(operations)
    .map(([id, { method, path }]) => {
      const variables = path.match(/\{[^}]+\}/g)?.length ?? 0;
      const source = path
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join('[^/]+');
      return {
        id,
        method: method.toUpperCase(),
        route: `${method.toUpperCase()} ${path}`,
        variables,
        regex: new RegExp(`${source}$`),
      };
    })
    .sort((a, b) => a.variables - b.variables);
  return (request) => {
    const method = request.method.toUpperCase();
    const pathname = new URL(request.url).pathname;
    const match = routes.find((route) => route.method === method && route.regex.test(pathname));
    return match ? { id: match.id, route: match.route } : undefined;
  };
}

/** Per-call overrides of the client's timeout and retries. */
export type CallOptions = Pick<TransportOptions, 'timeout' | 'maxRetries'>;

/** Header values a call may pass: `undefined` leaves the header out. */
export type CallHeaders = HeadersInput | Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The per-call options of every method of every client (resource methods, `api.*`, directory, trust): extra
 * headers, an abort signal, and the client's timeout and retries overridden for this call.
 */
export interface RequestOptions extends CallOptions {
  /** Extra request headers; `undefined` values are left out. */
  headers?: CallHeaders | undefined;
  /** Aborts the call (for a listing: the walk and the page request in flight). */
  signal?: AbortSignal | null | undefined;
}

/** Everything one call of an operation takes: its inputs plus the {@link RequestOptions}. */
export interface OperationCallOptions extends OperationInput, RequestOptions {}

/** What sends an operation call: one row of the table and the call's options in, the parsed body and response out. */
export interface OperationClient {
  request(operation: Operation, options?: OperationCallOptions): Promise<WithResponse<unknown>>;
}

/** The options a generated function takes for an operation whose hey-api data type is `Data`. */
export type OperationOptions<Data> = Omit<Data, 'url' | 'headers'> & RequestOptions;

/**
 * Sends `operation` through `client`: what each generated per-operation function does. Resolves to the parsed
 * body; `.withResponse()` and `.asResponse()` give the response too.
 */
export function sendOperation<T>(client: OperationClient, operation: Operation, options?: object): ApiPromise<T> {
  return new ApiPromise(client.request(operation, options as OperationCallOptions) as Promise<WithResponse<T>>);
}

// biome-ignore lint/suspicious/noExplicitAny: generated functions differ in their options; this only constrains shape.
type OperationFunction = (client: OperationClient, options?: any) => ApiPromise<unknown>;

type Rest<F> = F extends (client: OperationClient, ...rest: infer R) => unknown ? R : never;

/** A generated operation function bound to one client: `(options) => ApiPromise<data>`. */
export type BoundOperation<F extends OperationFunction> = (...args: Rest<F>) => ReturnType<F>;

/** Every generated operation function (typed by `Functions`, the module's type), bound to one client. */
export type BoundOperations<Functions, Ids extends string> = {
  [K in Ids & keyof Functions]: Functions[K] extends OperationFunction ? BoundOperation<Functions[K]> : never;
};

/**
 * Every operation of the table bound to `client`: `api[id](options)` sends `client.request(table[id], options)`
 * directly. `Functions` (the type of the generated `api.gen.ts`) gives each its option and result types.
 */
export function bindOperations<Functions, Ops extends Readonly<Record<string, Operation>>>(
  operations: Ops,
  client: OperationClient,
): BoundOperations<Functions, Extract<keyof Ops, string>> {
  const bound: Record<string, (options?: OperationCallOptions) => ApiPromise<unknown>> = {};
  for (const [id, operation] of Object.entries(operations)) {
    bound[id] = (options) => new ApiPromise(client.request(operation, options));
  }
  return bound as unknown as BoundOperations<Functions, Extract<keyof Ops, string>>;
}

/** Options of {@link pageNumberListing}. */
export interface PageNumberListingOptions {
  /** Page size when the call sets no `query.limit`. */
  pageSize: number;
  /** Maps each record of a page (e.g. out of its envelope); default: as it is. */
  item?: ((record: unknown) => unknown) | undefined;
}

/**
 * Every record of a page/limit listing (`?page=N&limit=L` answered with a plain array), fetched lazily one page
 * at a time through `client.request(operation, …)`; a page shorter than `limit` is the last. `limit` is always
 * sent, so that a short page reliably marks the end. Pages are yielded with their records already mapped.
 */
export function pageNumberListing<TItem>(
  client: OperationClient,
  operation: Operation,
  options: OperationCallOptions = {},
  { pageSize, item }: PageNumberListingOptions,
): Paginator<TItem[], TItem> {
  const given = options.query?.limit;
  const limit = typeof given === 'number' ? given : pageSize;
  const cursor = pageNumberCursor({ limit }) as CursorScheme<TItem[], number>;
  return paginate({
    ...cursor,
    fetchPage: async (page, signal) => {
      const query = { ...options.query, limit: given ?? limit, page };
      const { data } = await client.request(operation, { ...options, query, signal });
      if (!Array.isArray(data)) throw new ResponseParseError(operation.id, routeOf(operation), 'is not an array');
      const records: unknown[] = data;
      return (item ? records.map(item) : records) as TItem[];
    },
    items: (page) => page,
    signal: options.signal ?? undefined,
    operation: operation.id,
  });
}

/** `GET /products/{id}.json` for errors and logs. */
export function routeOf(operation: Pick<OperationShape, 'method' | 'path'>): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

export type { OperationInfo };
