/**
 * Lazy, async-iterable pagination over any cursor scheme, the two cursor schemes the services use, and the
 * page/limit listing of an operation ({@link pageNumberListing}).
 */
import { APIUserAbortError, ResponseParseError } from './internal/call/request-errors.js';
import { type Operation, type OperationCallOptions, type OperationClient, routeOf } from './operations.js';

/** Options of {@link paginate}. */
export interface PaginateOptions<TPage, TItem, TCursor> {
  /** Cursor of the first page. */
  first: TCursor;
  /** Fetches the page at `cursor`; pass `signal` on to the request. */
  fetchPage(cursor: TCursor, signal: AbortSignal | undefined): Promise<TPage>;
  /** The items of a page. */
  items(page: TPage): readonly TItem[];
  /** Cursor of the page after `page`, or undefined when `page` is the last. (`TPage` is inferred from `fetchPage`.) */
  next(page: NoInfer<TPage>, cursor: TCursor): TCursor | undefined;
  /**
   * Stops the iteration with an {@link APIUserAbortError} (the pending page request is aborted too when
   * `fetchPage` forwards the signal).
   */
  signal?: AbortSignal;
  /** Names the listing in that error, e.g. its operationId (default `paginate`). */
  operation?: string;
}

/** Options of {@link Paginator.toArray}. */
export interface ToArrayOptions {
  /** Required cap on the number of items collected: a positive integer. No page is fetched once it is reached. */
  max: number;
}

/** Items of every page, lazily: iterate it with `for await`, or walk whole pages, or collect a bounded array. */
export interface Paginator<TPage, TItem> extends AsyncIterable<TItem> {
  /** The pages themselves, fetched one at a time as the iteration proceeds. */
  pages(): AsyncIterable<TPage>;
  /** Collects at most `max` items, fetching only the pages needed for them. */
  toArray(options: ToArrayOptions): Promise<TItem[]>;
}

/**
 * Pages through a listing. Each iteration starts again from `first`; pages are fetched only when the consumer
 * asks for more items. Throws if `next` returns the cursor it was given (the listing would never end).
 */
export function paginate<TPage, TItem, TCursor>(
  options: PaginateOptions<TPage, TItem, TCursor>,
): Paginator<TPage, TItem> {
  const { signal, operation = 'paginate' } = options;

  async function* pages(): AsyncGenerator<TPage> {
    let cursor = options.first;
    for (;;) {
      if (signal?.aborted) throw new APIUserAbortError({ operation, route: operation });
      const page = await options.fetchPage(cursor, signal);
      yield page;
      const nextCursor = options.next(page, cursor);
      if (nextCursor === undefined) return;
      if (Object.is(nextCursor, cursor)) {
        throw new Error(`Pagination cursor did not advance past ${JSON.stringify(cursor)}`);
      }
      cursor = nextCursor;
    }
  }

  async function* items(): AsyncGenerator<TItem> {
    for await (const page of pages()) {
      yield* options.items(page);
    }
  }

  return {
    pages,
    [Symbol.asyncIterator]: items,
    async toArray(toArrayOptions: ToArrayOptions): Promise<TItem[]> {
      const max = toArrayOptions?.max;
      if (!Number.isInteger(max) || max < 1) {
        throw new TypeError(
          `toArray({ max }) needs max, a positive integer bounding how many items are fetched; got ${String(max)}`,
        );
      }
      const collected: TItem[] = [];
      for await (const item of items()) {
        collected.push(item);
        if (collected.length >= max) break;
      }
      return collected;
    },
  };
}

/** A cursor scheme to spread into {@link paginate}'s options: `paginate({ ...offsetCursor(), fetchPage, items })`. */
export interface CursorScheme<TPage, TCursor> {
  /** Cursor of the first page. */
  first: TCursor;
  /** Cursor of the page after `page`, or undefined at the end. */
  next(page: TPage, cursor: TCursor): TCursor | undefined;
}

/** A list envelope paged by offset: `{ count, total, limit, offset, results }`. */
export interface OffsetPage<TItem> {
  /** Number of records in `results`. */
  count?: number;
  /** Number of matching records overall. */
  total: number;
  /** Page size applied. */
  limit?: number;
  /** Offset applied. */
  offset: number;
  /** Records of this page. */
  results: readonly TItem[];
}

/** Options of {@link offsetCursor}. */
export interface OffsetCursorOptions {
  /**
   * End the listing on a page with fewer results than its `limit`, even if `total` promises more (for services
   * whose `total` can overstate what they list). Default false: a short page mid-listing is read past.
   */
  shortPageEnds?: boolean;
}

/**
 * Offset paging from offset `first`: the cursor is the offset to request. The next offset is
 * `offset + results.length` (so a short page never skips records); the listing ends on an empty page, once
 * `total` is reached, or with `shortPageEnds` on a page shorter than its `limit`.
 */
export function offsetCursor(first = 0, options: OffsetCursorOptions = {}): CursorScheme<OffsetPage<unknown>, number> {
  return {
    first,
    next(page) {
      const count = page.results.length;
      const nextOffset = page.offset + count;
      const shortPage = options.shortPageEnds === true && page.limit !== undefined && count < page.limit;
      return count === 0 || shortPage || nextOffset >= page.total ? undefined : nextOffset;
    },
  };
}

/** Options of {@link pageNumberCursor}. */
export interface PageNumberOptions {
  /** The page size requested; a page with fewer items is the last. */
  limit: number;
  /** Number of the first page (default 1). */
  first?: number;
}

/** Page-number paging over plain arrays: the cursor is the page number; a short or empty page ends the listing. */
export function pageNumberCursor(options: PageNumberOptions): CursorScheme<readonly unknown[], number> {
  if (!Number.isInteger(options.limit) || options.limit < 1) {
    throw new TypeError(`pageNumberCursor needs limit, a positive integer; got ${String(options.limit)}`);
  }
  return {
    first: options.first ?? 1,
    next: (page, pageNumber) => (page.length < options.limit ? undefined : pageNumber + 1),
  };
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
