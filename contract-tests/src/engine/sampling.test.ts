import { describe, expect, it } from 'vitest';
import {
  choosePages,
  describeInput,
  lastPage,
  pagesBetween,
  recordsIn,
  runSeed,
  sampleSize,
  seededRandom,
  spread,
  spreadPages,
} from './sampling.ts';

describe('record sampling of live runs', () => {
  it('spreads the sampled records over the whole list, the first always among them', () => {
    const ids = Array.from({ length: 100 }, (_, i) => i);
    expect(spread(ids, 10)).toEqual([0, 11, 22, 33, 44, 55, 66, 77, 88, 99]);
    expect(spread(ids.slice(0, 3), 10)).toEqual([0, 1, 2]);
    expect(spread(ids, 1)).toEqual([0]);
  });

  it('gives every page read an equal share, what a short page lacks going to the others', () => {
    const first = Array.from({ length: 50 }, (_, i) => i);
    expect(spreadPages([first, [50, 51]], 10)).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 50, 51]);
    expect(spreadPages([first, [50, 51, 52, 53, 54, 55, 56]], 10)).toEqual([0, 12, 25, 37, 49, 50, 52, 53, 55, 56]);
    expect(spreadPages([[1, 2], [3]], 10)).toEqual([1, 2, 3]);
  });

  it('counts the records an answer carries: a list, the one list of an envelope, else one record', () => {
    expect(recordsIn([{ product: {} }, { product: {} }])).toBe(2);
    expect(recordsIn({ count: 3, total: 9, results: [{}, {}, {}] })).toBe(3);
    expect(recordsIn({ product: { id: 1, images: [] } })).toBe(1);
    expect(recordsIn(undefined)).toBe(0);
  });

  it('reads CONTRACT_SAMPLE (default 10) and refuses a value that is not a whole number ≥ 1', () => {
    expect(sampleSize({})).toBe(10);
    expect(sampleSize({ CONTRACT_SAMPLE: '3' })).toBe(3);
    for (const value of ['0', '-2', '2.5', 'all', '1e6', '1000000', '0x10']) {
      expect(() => sampleSize({ CONTRACT_SAMPLE: value }), value).toThrow(
        /^CONTRACT_SAMPLE must be a whole number from 1 to 100 records, got "/,
      );
    }
  });

  it('reads CONTRACT_SEED and CONTRACT_PAGES within their ranges', () => {
    expect(runSeed({ CONTRACT_SEED: '42' })).toBe(42);
    expect(Number.isInteger(runSeed({}))).toBe(true);
    expect(() => runSeed({ CONTRACT_SEED: '-1' })).toThrow(/CONTRACT_SEED must be a whole number from 0 to 4294967295/);
    expect(pagesBetween({})).toBe(3);
    expect(() => pagesBetween({ CONTRACT_PAGES: '500' })).toThrow(/CONTRACT_PAGES .* 0 to 20 pages, got "500"/);
  });

  it('chooses the first page, the last and pages between them by the seed: the same seed, the same pages', () => {
    expect(choosePages(1, 3, seededRandom(1))).toEqual([1]);
    expect(choosePages(4, 3, seededRandom(1))).toEqual([1, 2, 3, 4]);
    const a = choosePages(100, 3, seededRandom(7));
    expect(a).toEqual(choosePages(100, 3, seededRandom(7)));
    expect(a).toHaveLength(5);
    expect(a[0]).toBe(1);
    expect(a.at(-1)).toBe(100);
    expect(new Set(a).size).toBe(5);
    // Different seeds reach different parts of the listing.
    const seen = new Set(Array.from({ length: 20 }, (_, seed) => choosePages(100, 3, seededRandom(seed))).flat());
    expect(seen.size).toBeGreaterThan(30);
    // A listing of a million pages: the same shape, the pages between strictly inside.
    const huge = choosePages(1_000_000, 3, seededRandom(3));
    expect(huge).toHaveLength(5);
    expect(huge.slice(1, -1).every((page) => page > 1 && page < 1_000_000)).toBe(true);
  });

  it('finds the last page with entries in a few reads, however long the listing', async () => {
    for (const last of [1, 2, 3, 5, 8, 9, 1000]) {
      const read: number[] = [];
      const found = await lastPage(async (page) => {
        read.push(page);
        return page <= last;
      });
      expect(found, `last ${last}`).toBe(last);
      expect(read.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(last + 1)) + 2);
    }
    // An empty list: page 1 only.
    expect(await lastPage(async () => false)).toBe(1);
  });

  it('describes the inputs of a rejected call shortly, naming each parameter', () => {
    expect(describeInput({ path: { id: 1101 }, query: { limit: 50, status: 'available' }, body: {} })).toBe(
      'path.id=1101, query.limit=50, query.status="available", a body',
    );
    expect(describeInput({ query: { q: 'x'.repeat(60) } })).toBe(`query.q="${'x'.repeat(39)}…`);
    expect(describeInput({})).toBe('no inputs');
  });
});
