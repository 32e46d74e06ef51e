/**
 * Page/limit listings: the store answers `?page=N&limit=L` with a plain array, and a page shorter than `limit`
 * (or empty) is the last one.
 */
import { type CallOptions, type Paginator, pageNumberCursor, paginate } from '@agent-apis/core';
import type { StoreApi, StoreOperationOptions, StoreOperationResult } from './api.js';
import { type OperationId, operations } from './gen/operations.gen.js';

/** Page size the store uses when `limit` is not given, per its documentation. */
export const DEFAULT_PAGE_SIZE = 50;

/** Operations that take `page` and `limit` and answer with an array: the ones `paginate` can walk. */
export type PagedOperationId = {
  [Id in OperationId]: (typeof operations)[Id] extends { query: { page: unknown; limit: unknown } }
    ? StoreOperationResult<Id> extends readonly unknown[]
      ? Id
      : never
    : never;
}[OperationId];

/** One record of listing `Id`, in the form the generated types give it (e.g. `{ product: {...} }`). */
export type PagedItem<Id extends PagedOperationId> =
  StoreOperationResult<Id> extends readonly (infer Item)[] ? Item : never;

/** The query of listing `Id` without `page`, which the paginator sets. `limit` is the page size. */
export type ListFilters<Id extends PagedOperationId> =
  StoreOperationOptions<Id> extends { query?: infer Query } ? Omit<NonNullable<Query>, 'page'> : never;

/** Options of listing `Id`: its operation's options, with `query` as in {@link ListFilters}. */
export type PaginateOptions<Id extends PagedOperationId> = Omit<StoreOperationOptions<Id>, 'query'> & {
  query?: ListFilters<Id>;
};

/** The options argument of `paginate(id, …)`: required when the listing has path parameters. */
export type PaginateArgs<Id extends PagedOperationId> =
  PaginateOptions<Id> extends { path: unknown } ? [options: PaginateOptions<Id>] : [options?: PaginateOptions<Id>];

/** Per-listing options of the resource helpers (`products.list(filters, options)`). */
export interface ListOptions extends CallOptions {
  /** Stops the walk, aborting the page request in flight. */
  signal?: AbortSignal;
}

/** `list(filters?, options?)` of a resource: every record of listing `Id`, fetched page by page. */
export type ListMethod<Id extends PagedOperationId> = (
  filters?: ListFilters<Id>,
  options?: ListOptions,
) => Paginator<StoreOperationResult<Id>, PagedItem<Id>>;

type PageRequest = { query?: Record<string, unknown>; signal?: AbortSignal | null };

function defaultPageSize(id: PagedOperationId): number {
  const { limit } = operations[id].query;
  return 'default' in limit && typeof limit.default === 'number' ? limit.default : DEFAULT_PAGE_SIZE;
}

/**
 * Walks listing `id` lazily from page 1, sending `limit` explicitly (the given one, else the spec's default) so
 * that a short page reliably marks the end. Inputs are validated by the bound operation when a page is fetched.
 * `item` maps each record (the resource layer unwraps `{ product: {...} }` with it).
 */
export function paginateOperation<Id extends PagedOperationId, Item = PagedItem<Id>>(
  api: StoreApi,
  id: Id,
  options: PaginateOptions<Id> = {} as PaginateOptions<Id>,
  item: (record: unknown) => unknown = (record) => record,
): Paginator<StoreOperationResult<Id>, Item> {
  const request = options as PageRequest;
  const limit = request.query?.limit ?? defaultPageSize(id);
  const fetchPage = api[id] as (request: PageRequest) => Promise<readonly unknown[]>;
  const pages = paginate({
    ...pageNumberCursor({ limit: typeof limit === 'number' ? limit : DEFAULT_PAGE_SIZE }),
    fetchPage: (page, signal) => fetchPage({ ...request, query: { ...request.query, limit, page }, signal }),
    items: (page) => page.map(item),
    signal: request.signal ?? undefined,
    operation: id,
  });
  return pages as Paginator<StoreOperationResult<Id>, Item>;
}
