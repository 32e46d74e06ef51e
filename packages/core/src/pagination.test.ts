import { describe, expect, it, vi } from 'vitest';
import {
  AgentApiError,
  APIUserAbortError,
  ConfigurationError,
  RequestValidationError,
  ResponseParseError,
} from './internal/call/errors.js';
import type { OperationClient } from './operations.js';
import { type OffsetPage, offsetCursor, pageNumberCursor, pageNumberListing, paginate } from './pagination.js';

const RECORDS = Array.from({ length: 53 }, (_, index) => `record-${index}`);

/** A directory-style listing: `{ count, total, limit, offset, results }`; `pageSizes` can force short pages. */
function offsetServer(pageSizes: (offset: number) => number = () => 10) {
  return vi.fn(async (offset: number, _signal?: AbortSignal): Promise<OffsetPage<string>> => {
    const results = RECORDS.slice(offset, offset + pageSizes(offset));
    return { count: results.length, total: RECORDS.length, limit: 10, offset, results };
  });
}

/** A store-style listing: plain arrays by page number. */
function pageServer(records: readonly string[], limit: number) {
  return vi.fn(async (page: number): Promise<string[]> => records.slice((page - 1) * limit, page * limit));
}

function offsetListing(fetchPage: ReturnType<typeof offsetServer>, signal?: AbortSignal, cursor = offsetCursor()) {
  return paginate({ ...cursor, fetchPage, items: (page) => page.results, signal, operation: 'listRecords' });
}

describe('paginate with offsetCursor', () => {
  it('yields every record exactly once, in order', async () => {
    const server = offsetServer();
    const seen: string[] = [];
    for await (const record of offsetListing(server)) seen.push(record);
    expect(seen).toEqual(RECORDS);
    expect(server.mock.calls.map(([offset]) => offset)).toEqual([0, 10, 20, 30, 40, 50]);
  });

  it('does not skip records when the server returns a short page mid-listing', async () => {
    const server = offsetServer((offset) => (offset === 10 ? 7 : 10));
    const seen: string[] = [];
    for await (const record of offsetListing(server)) seen.push(record);
    expect(seen).toEqual(RECORDS);
    expect(server.mock.calls.map(([offset]) => offset)).toEqual([0, 10, 17, 27, 37, 47]);
  });

  it('ends on an empty page even if total promised more', async () => {
    const server = offsetServer((offset) => (offset >= 20 ? 0 : 10));
    const seen = await offsetListing(server).toArray({ max: 1_000 });
    expect(seen).toEqual(RECORDS.slice(0, 20));
    expect(server).toHaveBeenCalledTimes(3);
  });

  it('with shortPageEnds, ends on a page shorter than its limit even though total promises more', async () => {
    const server = offsetServer((offset) => (offset === 10 ? 7 : 10));
    const listing = offsetListing(server, undefined, offsetCursor(0, { shortPageEnds: true }));
    expect(await listing.toArray({ max: 1_000 })).toEqual(RECORDS.slice(0, 17));
    expect(server.mock.calls.map(([offset]) => offset)).toEqual([0, 10]);
  });

  it('starts at the given offset', async () => {
    const server = offsetServer();
    expect(await offsetListing(server, undefined, offsetCursor(45)).toArray({ max: 100 })).toEqual(RECORDS.slice(45));
    expect(server.mock.calls.map(([offset]) => offset)).toEqual([45]);
  });

  it('walks whole pages', async () => {
    const pageOffsets: number[] = [];
    for await (const page of offsetListing(offsetServer()).pages()) pageOffsets.push(page.offset);
    expect(pageOffsets).toEqual([0, 10, 20, 30, 40, 50]);
  });

  it('starts again from the first page on every iteration', async () => {
    const listing = offsetListing(offsetServer());
    expect(await listing.toArray({ max: 3 })).toEqual(RECORDS.slice(0, 3));
    expect(await listing.toArray({ max: 3 })).toEqual(RECORDS.slice(0, 3));
  });
});

describe('paginate with pageNumberCursor', () => {
  it('ends on a short page', async () => {
    const records = RECORDS.slice(0, 12);
    const server = pageServer(records, 5);
    const listing = paginate({ ...pageNumberCursor({ limit: 5 }), fetchPage: server, items: (page) => page });
    expect(await listing.toArray({ max: 100 })).toEqual(records);
    expect(server.mock.calls.map(([page]) => page)).toEqual([1, 2, 3]);
  });

  it('ends on an empty page when the last page is full', async () => {
    const records = RECORDS.slice(0, 10);
    const server = pageServer(records, 5);
    const listing = paginate({ ...pageNumberCursor({ limit: 5 }), fetchPage: server, items: (page) => page });
    expect(await listing.toArray({ max: 100 })).toEqual(records);
    expect(server.mock.calls.map(([page]) => page)).toEqual([1, 2, 3]);
  });

  it('refuses a limit that is not a positive integer with a ConfigurationError naming limit', () => {
    for (const limit of [0, -1, 2.5, Number.NaN]) {
      expect(() => pageNumberCursor({ limit })).toThrow(ConfigurationError);
      expect(() => pageNumberCursor({ limit })).toThrow(
        `pageNumberCursor limit must be a whole number ≥ 1, got ${limit}`,
      );
    }
  });

  it('ends with a ResponseParseError when a page is not an array', async () => {
    const fetchPage = vi.fn(async (): Promise<string[]> => ({ products: [] }) as unknown as string[]);
    const listing = paginate({ ...pageNumberCursor({ limit: 5 }), fetchPage, items: (page) => page });
    const error = await listing.toArray({ max: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as Error).message).toBe('Response of paginate (paginate) is not an array');
  });
});

describe('toArray', () => {
  it.each([
    ['missing', undefined],
    ['zero', { max: 0 }],
    ['negative', { max: -3 }],
    ['fractional', { max: 2.5 }],
    ['NaN', { max: Number.NaN }],
  ])('requires max (%s)', async (_label, options) => {
    const server = offsetServer();
    const listing = offsetListing(server);
    const error = await listing.toArray(options as { max: number }).catch((caught: unknown) => caught);
    // Typed (it was a TypeError), naming the option and the listing.
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operation: 'listRecords', field: 'max' });
    expect((error as Error).message).toMatch(/^Invalid request for listRecords: max must be a whole number ≥ 1, got /);
    expect(server).not.toHaveBeenCalled();
  });

  it('returns at most max items and fetches no page beyond them', async () => {
    const server = offsetServer();
    expect(await offsetListing(server).toArray({ max: 15 })).toEqual(RECORDS.slice(0, 15));
    expect(server).toHaveBeenCalledTimes(2);
  });

  it('does not fetch the next page when max is reached on a page boundary', async () => {
    const server = offsetServer();
    expect(await offsetListing(server).toArray({ max: 10 })).toHaveLength(10);
    expect(server).toHaveBeenCalledTimes(1);
  });
});

describe('abort and safety', () => {
  it('stops before the next page with APIUserAbortError once the signal aborts, and hands the signal to fetchPage', async () => {
    const controller = new AbortController();
    const server = offsetServer();
    const seen: string[] = [];
    const iterate = async () => {
      for await (const record of offsetListing(server, controller.signal)) {
        seen.push(record);
        if (seen.length === 10) controller.abort();
      }
    };
    const error = await iterate().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).toMatchObject({ operation: 'listRecords', message: 'Request aborted by the caller on listRecords' });
    expect(seen).toHaveLength(10);
    expect(server).toHaveBeenCalledTimes(1);
    expect(server.mock.calls[0]?.[1]).toBe(controller.signal);
  });

  it('ends with a ResponseParseError when a cursor does not advance, instead of looping forever', async () => {
    const listing = paginate({
      first: 0,
      fetchPage: async () => ['same'],
      items: (page) => page,
      next: (_page, cursor) => cursor,
      operation: 'listThings',
    });
    const error = await listing.toArray({ max: 100 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as Error).message).toBe(
      'Response of listThings (listThings) gives a next cursor that does not move forward (0 after 0)',
    );
  });

  it('ends with a ResponseParseError when items gives no list, rather than a TypeError of for await', async () => {
    const listing = paginate({
      first: 0,
      fetchPage: async () => ({ data: ['a'] }),
      items: (page) => (page as unknown as { results: string[] }).results,
      next: () => undefined,
      operation: 'listThings',
      route: 'GET /things',
    });
    const error = await listing.toArray({ max: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as Error).message).toBe('Response of listThings (GET /things) has no list of items');
  });
});

describe('offsetCursor against a malformed or hostile listing', () => {
  /** Answers `answer(offset)` for each offset asked, counting the requests. */
  function hostileServer(answer: (offset: number) => unknown) {
    return vi.fn(async (offset: number) => answer(offset) as OffsetPage<string>);
  }
  const listingOf = (server: ReturnType<typeof hostileServer>) =>
    paginate({ ...offsetCursor(), fetchPage: server, items: (page) => page.results, operation: 'listRecords' });

  it('names the missing results member, from items and from pages (it was a TypeError of Symbol.asyncIterator)', async () => {
    const server = hostileServer((offset) => ({ total: 10, offset, data: ['a'] }));
    const fromItems = await listingOf(server)
      .toArray({ max: 5 })
      .catch((caught: unknown) => caught);
    expect(fromItems).toBeInstanceOf(ResponseParseError);
    expect((fromItems as Error).message).toBe('Response of listRecords (listRecords) has no `results` list');
    const fromPages = await (async () => {
      for await (const _page of listingOf(server).pages()) return 'a page was handed on';
    })().catch((caught: unknown) => caught);
    expect(fromPages).toBeInstanceOf(ResponseParseError);
  });

  it('names an offset that is not a whole number (a string would be concatenated)', async () => {
    const server = hostileServer(() => ({ total: 10, offset: '0', results: ['a', 'b'] }));
    const error = await listingOf(server)
      .toArray({ max: 5 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as Error).message).toContain('has no whole `offset` ≥ 0');
    expect(server).toHaveBeenCalledTimes(1);
  });

  it('ends with a ResponseParseError when the server always answers offset 0 (it was a plain Error)', async () => {
    const server = hostileServer(() => ({ total: 100, offset: 0, limit: 2, results: ['a', 'b'] }));
    const error = await listingOf(server)
      .toArray({ max: 100 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect(error).toBeInstanceOf(AgentApiError);
    expect((error as Error).message).toBe(
      'Response of listRecords (listRecords) gives a next cursor that does not move forward (2 after 2)',
    );
    expect(server.mock.calls.map(([offset]) => offset)).toEqual([0, 2]);
  });

  it('ends with a ResponseParseError when the offset goes back, instead of repeating pages for ever', async () => {
    // Asked for 4, the server answers offset 0: the walk went 0, 2, 4, 2, 4, 2, … without end.
    const server = hostileServer((offset) => ({
      total: 100,
      offset: offset === 4 ? 0 : offset,
      limit: 2,
      results: ['x', 'y'],
    }));
    const seen: string[] = [];
    const error = await (async () => {
      for await (const record of listingOf(server)) {
        seen.push(record);
        // Only here so that the old code's endless walk ends the test: the listing must end well before.
        if (seen.length >= 50) return 'the listing went on';
      }
      return 'the listing ended without an error';
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as Error).message).toContain('next cursor that does not move forward (2 after 4)');
    expect(server.mock.calls.map(([offset]) => offset)).toEqual([0, 2, 4]);
    expect(seen).toHaveLength(6);
  });
});

describe('pageNumberListing', () => {
  const listProducts = {
    id: 'listProducts',
    method: 'GET',
    path: '/products.json',
    query: { page: { type: 'integer' }, limit: { type: 'integer', maximum: 100 } },
  } as const;
  const pagesOf = (records: number) => {
    const queries: unknown[] = [];
    const client: OperationClient = {
      request: async (_operation, options) => {
        const { page, limit } = (options?.query ?? {}) as { page: number; limit: number };
        queries.push(options?.query);
        const from = (page - 1) * limit;
        const data = Array.from({ length: Math.max(0, Math.min(limit, records - from)) }, (_, i) => ({
          product: { id: from + i + 1 },
        }));
        return { data, response: new Response() };
      },
    };
    return { client, queries };
  };

  it('walks pages until a short one, sending limit every time, and yields mapped records in items and pages', async () => {
    const { client, queries } = pagesOf(5);
    const listing = pageNumberListing<{ id: number }>(
      client,
      listProducts,
      { query: { limit: 2 } },
      { pageSize: 50, item: (record) => (record as { product: { id: number } }).product },
    );
    const pages: { id: number }[][] = [];
    for await (const page of listing.pages()) pages.push(page);
    expect(pages).toEqual([[{ id: 1 }, { id: 2 }], [{ id: 3 }, { id: 4 }], [{ id: 5 }]]);
    expect(queries).toEqual([
      { limit: 2, page: 1 },
      { limit: 2, page: 2 },
      { limit: 2, page: 3 },
    ]);
    expect((await listing.toArray({ max: 10 })).map((item) => item.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends the given page size when the call sets none', async () => {
    const { client, queries } = pagesOf(1);
    await pageNumberListing(client, listProducts, {}, { pageSize: 50 }).toArray({ max: 5 });
    expect(queries).toEqual([{ limit: 50, page: 1 }]);
  });

  it('refuses a query.limit no page can fall short of with a RequestValidationError, before anything is sent', () => {
    for (const limit of [0, -5, 2.5]) {
      const { client, queries } = pagesOf(3);
      let error: unknown;
      try {
        pageNumberListing(client, listProducts, { query: { limit } }, { pageSize: 50 });
      } catch (thrown) {
        error = thrown;
      }
      // It was a TypeError naming pageNumberCursor, which the caller never called.
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ operation: 'listProducts', field: 'query.limit' });
      expect((error as Error).message).toBe(
        `Invalid request for listProducts: query.limit must be a whole number ≥ 1, got ${limit}`,
      );
      expect(queries).toEqual([]);
    }
  });

  it('names its route in the errors of its pages', async () => {
    const client: OperationClient = { request: async () => ({ data: { error: 'x' }, response: new Response() }) };
    const error = await pageNumberListing(client, listProducts, {}, { pageSize: 50 })
      .toArray({ max: 5 })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('Response of listProducts (GET /products.json) is not an array');
  });

  it('refuses a page that is not an array instead of ending the listing quietly', async () => {
    const client: OperationClient = { request: async () => ({ data: { error: 'x' }, response: new Response() }) };
    await expect(pageNumberListing(client, listProducts, {}, { pageSize: 50 }).toArray({ max: 5 })).rejects.toThrow(
      ResponseParseError,
    );
  });
});
