/**
 * One dataset of the directory (tool servers, plugins or skills): a paginated listing and a lookup by key.
 */
import type { ApiPromise, OffsetPage, Paginator, RequestOptions } from '@agent-apis/core';
import { offsetCursor, paginate } from '@agent-apis/core/service';

/** The list envelope the three list endpoints return. */
export interface ListPage<TItem> extends OffsetPage<TItem> {
  /** Page size the server applied. */
  limit: number;
}

/** Query parameters of a list endpoint; `limit` is the page size and `offset` where the listing starts. */
export interface ListQuery {
  limit?: number | undefined;
  offset?: number | undefined;
}

type ListOperation<TQuery, TPage> = (options: RequestOptions & { query: TQuery }) => Promise<TPage>;
type GetOperation<TKey, TRecord> = (options: RequestOptions & { path: TKey }) => ApiPromise<TRecord>;

/**
 * `list(filters)` pages through a dataset lazily; `get(key)` fetches one record (a `NotFoundError` when there is
 * none).
 */
export class DirectoryResource<TFilters extends ListQuery, TItem, TPage extends ListPage<TItem>, TKey, TRecord> {
  readonly #list: ListOperation<TFilters, TPage>;
  readonly #get: GetOperation<TKey, TRecord>;

  constructor(list: ListOperation<TFilters, TPage>, get: GetOperation<TKey, TRecord>) {
    this.#list = list;
    this.#get = get;
  }

  /**
   * Every record matching `filters`, across pages: iterate with `for await`, walk `.pages()`, or collect with
   * `.toArray({ max })`. The listing ends once `total` records are seen or on an empty or short page.
   */
  list(filters?: TFilters, options: RequestOptions = {}): Paginator<TPage, TItem> {
    return paginate({
      ...offsetCursor(filters?.offset ?? 0, { shortPageEnds: true }),
      fetchPage: (offset) => this.#list({ ...options, query: { ...filters, offset } as TFilters }),
      items: (page) => page.results,
      signal: options.signal ?? undefined,
    });
  }

  /** The record at `key`. */
  get(key: TKey, options: RequestOptions = {}): ApiPromise<TRecord> {
    return this.#get({ ...options, path: key });
  }
}
