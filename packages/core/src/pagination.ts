/**
 * Lazy, async-iterable pagination over any cursor scheme, the two cursor schemes the services use, and the
 * page/limit listing of an operation ({@link pageNumberListing}).
 */
import {
  APIUserAbortError,
  ConfigurationError,
  RequestValidationError,
  ResponseParseError,
} from './internal/call/errors.js';
import { type Operation, type OperationCallOptions, type OperationClient, routeOf } from './operations.js';

/** Options of {@link paginate}. */
export interface PaginateOptions<TPage, TItem, TCursor> {
  /** Cursor of the first page. */
  first: TCursor;
  /** Fetches the page at `cursor`; pass `signal` on to the request. */
  fetchPage(cursor: TCursor, signal: AbortSignal | undefined): Promise<TPage>;
  /** The items of a page: a list (anything else ends the listing with a {@link ResponseParseError}). */
  items(page: TPage): readonly TItem[];
  /** Cursor of the page after `page`, or undefined when `page` is the last. (`TPage` is inferred from `fetchPage`.) */
  next(page: NoInfer<TPage>, cursor: TCursor): TCursor | undefined;
  /** What makes a page unusable, naming the member at fault; see {@link CursorScheme.pageProblem}. */
  pageProblem?: ((page: NoInfer<TPage>) => string | undefined) | undefined;
  /** Whether a cursor moves forward; see {@link CursorScheme.advances}. Default: it is not the cursor it follows. */
  advances?: ((next: TCursor, cursor: TCursor) => boolean) | undefined;
  /**
   * Stops the iteration with an {@link APIUserAbortError} (the pending page request is aborted too when
   * `fetchPage` forwards the signal).
   */
  signal?: AbortSignal;
  /** Names the listing in errors, e.g. its operationId (default `paginate`). */
  operation?: string;
  /** The listing's route in errors, e.g. `GET /products.json` (default: `operation`). */
  route?: string | undefined;
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
 * asks for more items. A page the listing cannot go on from ends it with a {@link ResponseParseError} naming what
 * is wrong: one `pageProblem` finds, items that are no list, or a next cursor that does not move forward
 * (`advances`; by default, the cursor it was given again), since the listing would repeat pages without end.
 */
export function paginate<TPage, TItem, TCursor>(
  options: PaginateOptions<TPage, TItem, TCursor>,
): Paginator<TPage, TItem> {
  const { signal, operation = 'paginate', route = operation, pageProblem, advances } = options;
  const malformed = (problem: string) => new ResponseParseError(operation, route, problem);

  async function* pages(): AsyncGenerator<TPage> {
    let cursor = options.first;
    for (;;) {
      if (signal?.aborted) throw new APIUserAbortError({ operation, route });
      const page = await options.fetchPage(cursor, signal);
      const problem = pageProblem?.(page);
      if (problem) throw malformed(problem);
      yield page;
      const nextCursor = options.next(page, cursor);
      if (nextCursor === undefined) return;
      if (advances ? !advances(nextCursor, cursor) : Object.is(nextCursor, cursor)) {
        // Numbers (offsets, page numbers) are shown; a token is opaque, and may be long.
        const shown = typeof cursor === 'number' ? ` (${nextCursor} after ${cursor})` : '';
        throw malformed(`gives a next cursor that does not move forward${shown}`);
      }
      cursor = nextCursor;
    }
  }

  async function* items(): AsyncGenerator<TItem> {
    for await (const page of pages()) {
      const list = options.items(page);
      if (!Array.isArray(list)) throw malformed('has no list of items');
      yield* list;
    }
  }

  return {
    pages,
    [Symbol.asyncIterator]: items,
    async toArray(toArrayOptions: ToArrayOptions): Promise<TItem[]> {
      const max = toArrayOptions?.max;
      if (!Number.isInteger(max) || max < 1) {
        throw new RequestValidationError({
          operation,
          field: 'max',
          reason: `must be a whole number ≥ 1, got ${String(max)}`,
        });
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
  /**
   * What makes `page` unusable for this scheme, phrased to follow "Response of listX (route)" and naming the member
   * at fault (e.g. `has no \`results\` list`), or undefined. Checked before the page is handed on.
   */
  pageProblem?(page: TPage): string | undefined;
  /** Whether cursor `next` moves forward from `cursor`; one that does not ends the listing with an error. */
  advances?(next: TCursor, cursor: TCursor): boolean;
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
 * `total` is reached, or with `shortPageEnds` on a page shorter than its `limit`. A page without a `results` list,
 * or whose `offset` is not a whole number ≥ 0, and a next offset that is not past the one asked for (a server that
 * ignores `offset`, or goes back) end the listing with a {@link ResponseParseError} naming the member.
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
    pageProblem: (page) =>
      !Array.isArray(page?.results)
        ? 'has no `results` list'
        : Number.isInteger(page.offset) && page.offset >= 0
          ? undefined
          : 'has no whole `offset` ≥ 0',
    advances: (next, cursor) => next > cursor,
  };
}

/** Options of {@link pageNumberCursor}. */
export interface PageNumberOptions {
  /** The page size requested; a page with fewer items is the last. */
  limit: number;
  /** Number of the first page (default 1). */
  first?: number;
}

/**
 * Page-number paging over plain arrays: the cursor is the page number; a short or empty page ends the listing. A
 * `limit` that is not a whole number ≥ 1 is a {@link ConfigurationError} (no page would ever be short).
 */
export function pageNumberCursor(options: PageNumberOptions): CursorScheme<readonly unknown[], number> {
  if (!isPageSize(options.limit)) {
    throw new ConfigurationError(`pageNumberCursor limit must be a whole number ≥ 1, got ${String(options.limit)}`);
  }
  return {
    first: options.first ?? 1,
    next: (page, pageNumber) => (page.length < options.limit ? undefined : pageNumber + 1),
    pageProblem: (page) => (Array.isArray(page) ? undefined : 'is not an array'),
  };
}

function isPageSize(limit: unknown): limit is number {
  return Number.isInteger(limit) && (limit as number) >= 1;
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
 * sent, so that a short page reliably marks the end. Pages are yielded with their records already mapped. A
 * `query.limit` that is a number but not a whole number ≥ 1 is a {@link RequestValidationError} thrown at once, when
 * the listing is made; the other inputs are checked when the first page is fetched.
 */
export function pageNumberListing<TItem>(
  client: OperationClient,
  operation: Operation,
  options: OperationCallOptions = {},
  { pageSize, item }: PageNumberListingOptions,
): Paginator<TItem[], TItem> {
  const given = options.query?.limit;
  // Refused here, before anything is sent: the walk needs a page size that a last page can fall short of.
  if (typeof given === 'number' && !isPageSize(given)) {
    throw new RequestValidationError({
      operation: operation.id,
      field: 'query.limit',
      reason: `must be a whole number ≥ 1, got ${given}`,
    });
  }
  const limit = typeof given === 'number' ? given : pageSize;
  const cursor = pageNumberCursor({ limit }) as CursorScheme<TItem[], number>;
  const route = routeOf(operation);
  return paginate({
    ...cursor,
    fetchPage: async (page, signal) => {
      const query = { ...options.query, limit: given ?? limit, page };
      const { data } = await client.request(operation, { ...options, query, signal });
      if (!Array.isArray(data)) throw new ResponseParseError(operation.id, route, 'is not an array');
      const records: unknown[] = data;
      return (item ? records.map(item) : records) as TItem[];
    },
    items: (page) => page,
    signal: options.signal ?? undefined,
    operation: operation.id,
    route,
  });
}
