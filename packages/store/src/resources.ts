/**
 * The resource layer (`store.products.variants.create(productId, {...})`) over `client.api`: one generic method
 * per row of the generated `resourceTable`, plus the generic types the generated params/result types use.
 */
import { type CallOptions, type OperationShape, ResponseParseError } from '@agent-apis/core';
import type { StoreApi, StoreOperationOptions, StoreOperationResult } from './api.js';
import { type OperationId, operations } from './gen/operations.gen.js';
import type { resourceTable, StoreResources } from './gen/resources.gen.js';
import { type PagedOperationId, type PaginateOptions, paginateOperation } from './pagination.js';

/** Per-call options of every resource method: headers, abort signal, timeout and retries. */
export interface RequestOptions extends CallOptions {
  /** Extra request headers. */
  headers?: HeadersInit | undefined;
  /** Aborts the request (or, for a listing, the walk and the page request in flight). */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in ms. */
  timeout?: number | undefined;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
}

type QueryOf<Id extends OperationId> = StoreOperationOptions<Id> extends { query?: infer Query } ? Query : never;
type BodyOf<Id extends OperationId> = StoreOperationOptions<Id> extends { body?: infer Body } ? Body : never;

/** Options of a method that sends a body: {@link RequestOptions} plus the operation's query parameters. */
export type ResourceOptions<Id extends OperationId> = RequestOptions &
  ([QueryOf<Id>] extends [never | undefined] ? unknown : { query?: QueryOf<Id> | undefined });

/** The query parameters of operation `Id`, the params of a method without a body. */
export type QueryParams<Id extends OperationId> = NonNullable<QueryOf<Id>>;

/** The body of operation `Id` without its `Key` envelope (`''`: the body as it is). */
export type BodyParams<Id extends OperationId, Key extends string> = Key extends ''
  ? NonNullable<BodyOf<Id>>
  : NonNullable<NonNullable<BodyOf<Id>>[Key & keyof NonNullable<BodyOf<Id>>]>;

/** One record of the array operation `Id` answers with. */
export type ItemOf<Id extends OperationId> = StoreOperationResult<Id> extends readonly (infer Item)[] ? Item : never;

/** `Value` without its `Key` envelope (`''`: as it is). */
export type Unwrapped<Value, Key extends string> = Key extends ''
  ? Value
  : NonNullable<Value>[Key & keyof NonNullable<Value>] extends infer Inner
    ? NonNullable<Inner>
    : never;

/** A row of the generated table; trailing defaults (`''`, `''`, `'one'`) are left out. */
type Row = readonly [operationId: OperationId, bodyKey?: string, resultKey?: string, kind?: 'list' | 'items' | 'one'];
type Node = { readonly [name: string]: Node | Row };

/** The inner value of an envelope; a response without it is broken, not empty. */
function unwrap(value: unknown, key: string, id: OperationId): unknown {
  if (key === '') return value;
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, key)) {
    return (value as Record<string, unknown>)[key];
  }
  const { method, path } = operations[id];
  throw new ResponseParseError(id, `${method} ${path}`, `has no "${key}" member`);
}

type Request = { path?: Record<string, unknown>; query?: unknown; body?: unknown } & RequestOptions;

function resourceMethod(api: StoreApi, [id, bodyKey = '', resultKey = '', kind = 'one']: Row) {
  const operation: OperationShape & { hasBody?: boolean } = operations[id];
  const pathParams = operation.pathParams ?? [];
  const pathCount = pathParams.length;
  const takesParams =
    operation.hasBody === true || Object.keys(operation.query ?? {}).some((name) => kind !== 'list' || name !== 'page');
  const call = api[id] as (request: Request) => Promise<unknown>;
  return (...args: unknown[]) => {
    const params = takesParams ? args[pathCount] : undefined;
    const { query, ...options } = (args[pathCount + (takesParams ? 1 : 0)] ?? {}) as Request;
    const request: Request = { ...options };
    if (pathCount > 0) request.path = Object.fromEntries(pathParams.map((name, i) => [name, args[i]]));
    if (operation.hasBody) {
      if (params !== undefined) request.body = bodyKey ? { [bodyKey]: params } : params;
      if (query !== undefined) request.query = query;
    } else if (params !== undefined) {
      request.query = params;
    }
    if (kind === 'list') {
      return paginateOperation(api, id as PagedOperationId, request as PaginateOptions<PagedOperationId>, (item) =>
        unwrap(item, resultKey, id),
      );
    }
    return call(request).then((result) =>
      kind === 'items' && Array.isArray(result)
        ? result.map((item) => unwrap(item, resultKey, id))
        : unwrap(result, resultKey, id),
    );
  };
}

function bindNode(api: StoreApi, node: Node): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(node).map(([name, value]) => [
      name,
      Array.isArray(value) ? resourceMethod(api, value as Row) : bindNode(api, value as Node),
    ]),
  );
}

/** Binds every resource method of `table` to the raw operations of one client. */
export function bindResources(api: StoreApi, table: typeof resourceTable): StoreResources {
  return bindNode(api, table) as unknown as StoreResources;
}
