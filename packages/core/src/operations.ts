/**
 * The ground floor of core: operations as the runtime sees them, the row codegen emits for each one (what the input
 * check and the wire encoding read), the per-call options every method takes ({@link RequestOptions}), what a call
 * resolves to ({@link WithResponse}) and how errors name an operation ({@link OperationInfo}). It imports nothing, so
 * every other file may import it (`internal/` included); sending a row is `api-promise.ts`.
 */

/**
 * Headers as every option and call takes them: a `Headers`, `[name, value]` pairs, or a record. Declared here (not
 * `HeadersInit`, which comes with the DOM lib only) so that the published `.d.ts` files compile for a Node-only
 * consumer (`lib: ["ES2023"]`, `types: ["node"]`, `skipLibCheck: false`).
 */
export type HeadersInput = Headers | [string, string][] | Record<string, string>;

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

/** A call's parsed body next to the raw response it came from (status, headers; the body is already read). */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

/** How a service names an operation in errors and logs. */
export interface OperationInfo {
  /** The operationId, e.g. `getProduct`. */
  id?: string;
  /** Method and path template, e.g. `GET /v1/products/{id}.json`. Defaults to the method and the actual path. */
  route?: string;
  /**
   * The path the API's base URL ends with (`/v1` for the store), when the client knows one: a 404 whose URL
   * lacks it gets a hint that the base URL is probably missing it.
   */
  basePath?: string | undefined;
}

/** The inputs of one SDK call, as the generated functions take them. */
export interface OperationInput {
  path?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

/** Header values a call may pass: `undefined` leaves the header out. */
export type CallHeaders = HeadersInput | Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The per-call options of every method of every client (resource methods, `api.*`, directory, trust): extra
 * headers, an abort signal, and the client's timeout and retries overridden for this call.
 */
export interface RequestOptions {
  /** This call's deadline in ms (retries included), instead of the client's. */
  timeout?: number | undefined;
  /** This call's retries after the first attempt (0 disables retrying), instead of the client's. */
  maxRetries?: number | undefined;
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

/** `GET /products/{id}.json` for errors and logs. */
export function routeOf(operation: Pick<OperationShape, 'method' | 'path'>): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}
