/**
 * Page/limit listings: the store answers `?page=N&limit=L` with a plain array, and a page shorter than `limit`
 * (or empty) is the last one. Core's `pageNumberListing` walks them; this module names them and their types.
 */
import type { OperationClient, Paginator, RequestOptions } from '@agent-apis/core';
import { pageNumberListing } from '@agent-apis/core/service';
import type { StoreOperationOptions, StoreOperationResult } from './api.js';
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

/** `list(filters?, options?)` of a resource: every record of listing `Id`, fetched page by page. */
export type ListMethod<Id extends PagedOperationId> = (
  filters?: ListFilters<Id>,
  options?: RequestOptions,
) => Paginator<PagedItem<Id>[], PagedItem<Id>>;

/** The spec's default page size of listing `id`, else {@link DEFAULT_PAGE_SIZE}. */
export function defaultPageSize(id: PagedOperationId): number {
  const { limit } = operations[id].query;
  return 'default' in limit && typeof limit.default === 'number' ? limit.default : DEFAULT_PAGE_SIZE;
}

/**
 * Walks listing `id` lazily from page 1 (see core's `pageNumberListing`); inputs are validated when a page is
 * fetched, except a `query.limit` below 1 (or not whole), refused at once with a `RequestValidationError`. Records
 * keep the form the generated types give them.
 */
export function paginateOperation<Id extends PagedOperationId>(
  client: OperationClient,
  id: Id,
  options?: PaginateOptions<Id>,
): Paginator<PagedItem<Id>[], PagedItem<Id>> {
  return pageNumberListing(client, operations[id], options as object, { pageSize: defaultPageSize(id) });
}
