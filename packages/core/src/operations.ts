/**
 * Operations as the runtime sees them: the row codegen emits for each one (what the input check and the wire
 * encoding read), the per-call options every method takes ({@link RequestOptions}), and how a row is sent
 * (`sendOperation`, `bindOperations`).
 */
import { ApiPromise, type WithResponse } from './api-promise.js';
import type { OperationInfo } from './internal/call/answer-errors.js';

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
  // Keys, not entries: the store binds 179 operations on the first read of `api`, and entries' pairs cost it double.
  for (const id of Object.keys(operations)) {
    const operation = operations[id] as Operation;
    bound[id] = (options) => new ApiPromise(client.request(operation, options));
  }
  return bound as unknown as BoundOperations<Functions, Extract<keyof Ops, string>>;
}

/** `GET /products/{id}.json` for errors and logs. */
export function routeOf(operation: Pick<OperationShape, 'method' | 'path'>): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

export type { OperationInfo };
