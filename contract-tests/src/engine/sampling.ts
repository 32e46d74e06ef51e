/**
 * Which records a live run looks up and which list pages it reads: the first page, the last page and
 * CONTRACT_PAGES pages between them chosen by a seed (CONTRACT_SEED, else a random one, printed with the run so
 * it can be replayed); up to CONTRACT_SAMPLE records per operation, an equal share from every page read (the
 * first and the last entry of each always among them); and how many records an answer carried.
 */

import { atPointer } from '../contract-spec/spec.ts';
import { contractNumber, envNumber, RANGES } from '../settings.ts';

/** CONTRACT_SAMPLE: how many records per operation a run looks up (default 10, 1–100). */
export function sampleSize(env: Record<string, string | undefined> = process.env): number {
  return contractNumber(env, 'CONTRACT_SAMPLE');
}

/** CONTRACT_PAGES: how many list pages between the first and the last a run reads (default 3, 0–20). */
export function pagesBetween(env: Record<string, string | undefined> = process.env): number {
  return contractNumber(env, 'CONTRACT_PAGES');
}

/** CONTRACT_SEED, else a fresh random seed (a whole number below 2^32). */
export function runSeed(env: Record<string, string | undefined> = process.env): number {
  return envNumber(env, 'CONTRACT_SEED', RANGES.CONTRACT_SEED, Math.floor(Math.random() * 2 ** 32));
}

/** A small deterministic generator (mulberry32): the same seed gives the same numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * The pages to read of a list whose last page is `last`: the first, the last, and `between` distinct pages
 * strictly between them picked by `random` (all of them when there are no more), in ascending order.
 */
export function choosePages(last: number, between: number, random: () => number): number[] {
  if (last <= 1) return [1];
  const span = last - 2;
  const count = Math.min(between, span);
  const chosen = new Set<number>();
  if (span <= 4 * count) {
    // Few pages between: a partial Fisher-Yates shuffle of them all.
    const middle = Array.from({ length: span }, (_, i) => i + 2);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(random() * (middle.length - i));
      [middle[i], middle[j]] = [middle[j] as number, middle[i] as number];
      chosen.add(middle[i] as number);
    }
  } else {
    // Many (a listing of a million pages): draw until `count` distinct, never listing them all.
    while (chosen.size < count) chosen.add(2 + Math.floor(random() * span));
  }
  return [1, ...[...chosen].sort((a, b) => a - b), last];
}

/**
 * The last page that has entries, found with as few reads as a doubling search allows: pages 1, 2, 4, 8, … until
 * one is empty (or `maxPage`), then halving between the last page with entries and the first without.
 * `hasEntries` reads a page; what it read is the caller's to keep.
 */
export async function lastPage(hasEntries: (page: number) => Promise<boolean>, maxPage = 1 << 20): Promise<number> {
  if (!(await hasEntries(1))) return 1;
  let full = 1;
  let empty = 0;
  for (let page = 2; page <= maxPage; page *= 2) {
    if (await hasEntries(page)) full = page;
    else {
      empty = page;
      break;
    }
  }
  if (empty === 0) return full;
  while (empty - full > 1) {
    const mid = Math.floor((full + empty) / 2);
    if (await hasEntries(mid)) full = mid;
    else empty = mid;
  }
  return full;
}

/** How many records an answer carries: a list's length, the one list inside an envelope, else one. */
export function recordsIn(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (body && typeof body === 'object') {
    const lists = Object.values(body).filter(Array.isArray);
    if (lists.length === 1) return (lists[0] as unknown[]).length;
    return 1;
  }
  return body === undefined ? 0 : 1;
}

/** `count` items of `items`, evenly spread, the first and the last always among them. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  if (count === 1) return items.slice(0, 1);
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))] as T);
}

/** `count` items from several pages: an equal share of each (spread within it), what one page lacks to the others. */
export function spreadPages<T>(pages: readonly (readonly T[])[], count: number): T[] {
  const shares = pages.map(() => 0);
  let left = Math.min(
    count,
    pages.reduce((n, page) => n + page.length, 0),
  );
  while (left > 0) {
    for (const [i, page] of pages.entries()) {
      if (left > 0 && (shares[i] ?? 0) < page.length) {
        shares[i] = (shares[i] ?? 0) + 1;
        left--;
      }
    }
  }
  return pages.flatMap((page, i) => spread(page, shares[i] ?? 0));
}

/** The pointer with its first array index replaced by `index` (`/0/product/id` → `/3/product/id`). */
export function atIndex(pointer: string, index: number): string {
  return pointer.replace(/\/\d+(?=\/|$)/, `/${index}`);
}

/** The array a pointer's first index walks (`/results/0/slug` → the `results` array). */
export function listAt(body: unknown, pointer: string): unknown[] {
  const before = pointer.split(/\/\d+(?:\/|$)/)[0] ?? '';
  const list = before ? atPointer(body, before) : body;
  return Array.isArray(list) ? list : [];
}

/** The inputs of a call, shortly: `path.id=1101, query.limit=50, a body` (values cut at 40 characters). */
export function describeInput(input: {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}): string {
  const value = (v: unknown) => {
    const text = JSON.stringify(v) ?? String(v);
    return text.length > 40 ? `${text.slice(0, 40)}…` : text;
  };
  const parts = [
    ...Object.entries(input.path ?? {}).map(([name, v]) => `path.${name}=${value(v)}`),
    ...Object.entries(input.query ?? {}).map(([name, v]) => `query.${name}=${value(v)}`),
    ...(input.body === undefined ? [] : ['a body']),
  ];
  return parts.length ? parts.join(', ') : 'no inputs';
}
