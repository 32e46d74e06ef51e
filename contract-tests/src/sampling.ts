/**
 * Which records a live run looks up: up to CONTRACT_SAMPLE per operation, an equal share from every list page
 * read (the first and the last entry of each always among them), and how many records an answer carried.
 */
import { atPointer } from './sources.ts';

/** CONTRACT_SAMPLE: how many records per operation a run looks up (default 10, at least 1). */
export function sampleSize(env: Record<string, string | undefined> = process.env): number {
  const raw = env.CONTRACT_SAMPLE;
  const value = Number(raw ?? 10);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`CONTRACT_SAMPLE must be a whole number of records ≥ 1, got "${raw}"`);
  }
  return value;
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
