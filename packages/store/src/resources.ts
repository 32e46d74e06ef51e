/**
 * The resource layer (`store.products.variants.create(productId, {...})`): one generic method per row of the
 * generated `resourceTable`, made on first use, sending its operation's row of the operation table through the client directly,
 * plus the generic types the generated params/result types use.
 */
import type { OperationCallOptions, OperationClient, RequestOptions } from '@agent-apis/core';
import { ResponseParseError } from '@agent-apis/core';
import { mapApiPromise, pageNumberListing, routeOf } from '@agent-apis/core/service';
import type { StoreOperationOptions, StoreOperationResult } from './api.js';
import { type OperationId, operations } from './gen/operations.gen.js';
import type { resourceTable } from './gen/resources.gen.js';
import { lazyProperty } from './lazy-property.js';
import { defaultPageSize, type PagedOperationId } from './pagination.js';

type QueryOf<Id extends OperationId> = StoreOperationOptions<Id> extends { query?: infer Query } ? Query : never;
type BodyOf<Id extends OperationId> = StoreOperationOptions<Id> extends { body?: infer Body } ? Body : never;

/** Options of a method that sends a body: {@link RequestOptions} plus the operation's query parameters. */
export type ResourceOptions<Id extends OperationId> = RequestOptions &
  ([QueryOf<Id>] extends [never | undefined] ? unknown : { query?: QueryOf<Id> | undefined });

/** The query parameters of operation `Id`, the params of a method without a body. */
export type QueryParams<Id extends OperationId> = NonNullable<QueryOf<Id>>;

/** `Fields` with each array field named in `Nested` taking its records without their envelope. */
export type WithoutNestedEnvelopes<Fields, Nested extends Readonly<Record<string, string>>> = {
  [Field in keyof Fields]: Field extends keyof Nested
    ? NonNullable<Fields[Field]> extends readonly (infer Wrapped)[]
      ? NonNullable<NonNullable<Wrapped>[Nested[Field] & keyof NonNullable<Wrapped>]>[]
      : Fields[Field]
    : Fields[Field];
};

/**
 * The body of operation `Id` without its `Key` envelope (`''`: the body as it is), and without the envelope of
 * each record of the array fields in `Nested` (`{ variants: 'variant' }`: `variants: [{ sku }]`).
 */
export type BodyParams<
  Id extends OperationId,
  Key extends string,
  Nested extends Readonly<Record<string, string>> = Record<never, string>,
> = WithoutNestedEnvelopes<
  Key extends '' ? NonNullable<BodyOf<Id>> : NonNullable<NonNullable<BodyOf<Id>>[Key & keyof NonNullable<BodyOf<Id>>]>,
  Nested
>;

/** One record of the array operation `Id` answers with. */
export type ItemOf<Id extends OperationId> = StoreOperationResult<Id> extends readonly (infer Item)[] ? Item : never;

/** `Value` without its `Key` envelope (`''`: as it is). */
export type Unwrapped<Value, Key extends string> = Key extends ''
  ? Value
  : NonNullable<Value>[Key & keyof NonNullable<Value>] extends infer Inner
    ? NonNullable<Inner>
    : never;

/** A row of the generated table; trailing defaults (`''`, `''`, `'one'`, none) are left out. */
type Row = readonly [
  operationId: OperationId,
  bodyKey?: string,
  resultKey?: string,
  kind?: 'list' | 'items' | 'one',
  nestedKeys?: Readonly<Record<string, string>>,
];
type Node = { readonly [name: string]: Node | Row };

/** The inner value of an envelope; a response without it is broken, not empty. */
function unwrap(value: unknown, key: string, id: OperationId): unknown {
  if (key === '') return value;
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, key)) {
    return (value as Record<string, unknown>)[key];
  }
  throw new ResponseParseError(id, routeOf(operations[id]), `has no "${key}" member`);
}

/** The body on the wire: the params in their envelope, each record of a nested array field in its own. */
function envelop(params: unknown, bodyKey: string, nestedKeys: Readonly<Record<string, string>> | undefined): unknown {
  let fields = params;
  if (nestedKeys && fields !== null && typeof fields === 'object') {
    const copy: Record<string, unknown> = { ...fields };
    for (const [field, key] of Object.entries(nestedKeys)) {
      const records = copy[field];
      if (Array.isArray(records)) copy[field] = records.map((record) => ({ [key]: record }));
    }
    fields = copy;
  }
  return bodyKey ? { [bodyKey]: fields } : fields;
}

function resourceMethod(client: OperationClient, [id, bodyKey = '', resultKey = '', kind = 'one', nestedKeys]: Row) {
  const operation = operations[id];
  const pathParams: readonly string[] = 'pathParams' in operation ? operation.pathParams : [];
  const pathCount = pathParams.length;
  const hasBody = 'hasBody' in operation;
  const query: Readonly<Record<string, unknown>> = 'query' in operation ? operation.query : {};
  const takesParams = hasBody || Object.keys(query).some((name) => kind !== 'list' || name !== 'page');
  const item = (record: unknown) => unwrap(record, resultKey, id);
  return (...args: unknown[]) => {
    const params = takesParams ? args[pathCount] : undefined;
    const request: OperationCallOptions = { ...(args[pathCount + (takesParams ? 1 : 0)] as RequestOptions) };
    if (pathCount > 0) request.path = Object.fromEntries(pathParams.map((name, i) => [name, args[i]]));
    if (hasBody) {
      if (params !== undefined) request.body = envelop(params, bodyKey, nestedKeys);
    } else if (params !== undefined) {
      request.query = params as Record<string, unknown>;
    }
    if (kind === 'list') {
      return pageNumberListing(client, operation, request, {
        pageSize: defaultPageSize(id as PagedOperationId),
        item,
      });
    }
    return mapApiPromise(client.request(operation, request), (result) =>
      kind === 'items' && Array.isArray(result) ? result.map(item) : item(result),
    );
  };
}

/**
 * Gives `holder` every member of `node` (a resource of the table, or the whole table) as an enumerable property
 * sending through `client`: a resource method, or the object of a nested resource. Each is made on its first read and
 * kept, so a client pays for the resources it uses, not for all of them at construction.
 */
export function defineResources<Holder extends object>(
  holder: Holder,
  client: OperationClient,
  node: typeof resourceTable | Node,
): Holder {
  for (const [name, child] of Object.entries(node as Node)) {
    Object.defineProperty(
      holder,
      name,
      lazyProperty(name, () =>
        Array.isArray(child) ? resourceMethod(client, child as Row) : defineResources({}, client, child as Node),
      ),
    );
  }
  return holder;
}
