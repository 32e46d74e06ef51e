/**
 * Answers an agent can use: a `fields` selection, and a byte cap that pages a large answer by whole records, each
 * page a complete JSON document with a cursor to the rest (`answer_more`). An answer with no list to page is sent
 * as consecutive parts of its JSON text (`part`), each a complete JSON string. Held remainders are bounded in count
 * and age.
 */
/** Default cap on one answer's JSON text, in UTF-8 bytes (about 6k tokens). */
export const DEFAULT_MAX_ANSWER_BYTES = 24_000;
/** Remainders held for `answer_more` at most (the oldest is dropped first). */
const MAX_HELD = 32;
/** How long a remainder is held. */
const HELD_MS = 10 * 60_000;

/**
 * `value` reduced to the dotted `paths` (`name`, `product.price`); arrays are walked through, so a path names the
 * fields of each element. An empty selection keeps everything.
 */
export function selectFields(value: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0) return value;
  return pick(
    value,
    paths.map((path) => path.split('.').filter(Boolean)),
  );
}

function pick(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((entry) => pick(entry, paths));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  const byHead = new Map<string, string[][]>();
  for (const [head, ...rest] of paths) {
    if (head === undefined || !(head in record)) continue;
    byHead.set(head, [...(byHead.get(head) ?? []), rest]);
  }
  for (const [head, rests] of byHead) {
    out[head] = rests.some((rest) => rest.length === 0)
      ? record[head]
      : pick(
          record[head],
          rests.filter((rest) => rest.length > 0),
        );
  }
  return out;
}

/** What a tool answers: `data` (or a `part` of a long text), `cursor` when more follows. */
export interface Answer {
  data?: unknown;
  /** A part of the answer's JSON text, when it has no list to page by records; concatenate the parts, then parse. */
  part?: string;
  /** Pass to `answer_more` for the rest. */
  cursor?: string;
  /** Records (or characters of a `part`) still to come. */
  remaining?: number;
  note?: string;
}

interface Held {
  /** The answer with the list being paged replaced by `[]` at `listPath`. */
  shell: unknown;
  listPath: string[];
  items: unknown[];
  /** Set instead of `items` for text parts. */
  text?: string;
  offset: number;
  expires: number;
}

const encoder = new TextEncoder();
const bytes = (value: unknown) => encoder.encode(JSON.stringify(value) ?? 'null').length;

/** The path of the list to page by: the answer itself, else its largest array at depth one or two. */
function findList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return [];
  if (!value || typeof value !== 'object') return undefined;
  let best: { path: string[]; size: number } | undefined;
  for (const [key, child] of Object.entries(value)) {
    const candidates: [string[], unknown][] = [[[key], child]];
    if (child && typeof child === 'object' && !Array.isArray(child)) {
      for (const [inner, grandchild] of Object.entries(child)) candidates.push([[key, inner], grandchild]);
    }
    for (const [path, candidate] of candidates) {
      if (!Array.isArray(candidate) || candidate.length < 2) continue;
      const size = bytes(candidate);
      if (!best || size > best.size) best = { path, size };
    }
  }
  return best?.path;
}

function getAt(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value);
}

function withListAt(shell: unknown, path: string[], list: unknown[]): unknown {
  if (path.length === 0) return list;
  const [head, ...rest] = path as [string, ...string[]];
  return {
    ...(shell as Record<string, unknown>),
    [head]: withListAt((shell as Record<string, unknown>)[head], rest, list),
  };
}

/** Holds remainders of capped answers between `answer_more` calls. */
export class AnswerPager {
  readonly #held = new Map<string, Held>();
  readonly #maxBytes: number;
  readonly #now: () => number;

  constructor(maxBytes = DEFAULT_MAX_ANSWER_BYTES, now: () => number = Date.now) {
    this.#maxBytes = maxBytes;
    this.#now = now;
  }

  /** `data` as one answer, or its first page with a cursor when its JSON text is over the cap. */
  answer(data: unknown): Answer {
    if (bytes({ data }) <= this.#maxBytes) return { data };
    const listPath = findList(data);
    if (listPath) {
      const items = getAt(data, listPath) as unknown[];
      const shell = withListAt(data, listPath, []);
      if (bytes({ data: shell }) < this.#maxBytes / 2) {
        return this.#page({ shell, listPath, items, offset: 0, expires: 0 });
      }
    }
    return this.#page({ shell: undefined, listPath: [], items: [], text: JSON.stringify(data), offset: 0, expires: 0 });
  }

  /** The next page for `cursor`; `undefined` when it is unknown or expired. */
  more(cursor: string): Answer | undefined {
    this.#expire();
    const held = this.#held.get(cursor);
    if (!held) return undefined;
    this.#held.delete(cursor);
    return this.#page(held);
  }

  #page(held: Held): Answer {
    const budget = this.#maxBytes - 200;
    let answer: Answer;
    let next: number;
    if (held.text !== undefined) {
      // The longest part whose JSON string fits the budget (escapes make a character cost up to 6 bytes).
      let low = held.offset + 1;
      let high = held.text.length;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (bytes(held.text.slice(held.offset, middle)) <= budget) low = middle;
        else high = middle - 1;
      }
      const end = low;
      next = Math.max(end, held.offset + 1);
      answer = { part: held.text.slice(held.offset, next) };
      if (next < held.text.length) answer.remaining = held.text.length - next;
    } else {
      next = held.offset;
      let size = bytes({ data: held.shell });
      while (next < held.items.length) {
        const cost = bytes(held.items[next]) + 1;
        if (next > held.offset && size + cost > budget) break;
        size += cost;
        next += 1;
      }
      answer = { data: withListAt(held.shell, held.listPath, held.items.slice(held.offset, next)) };
      if (next < held.items.length) answer.remaining = held.items.length - next;
      if (size > budget) answer.note = 'A single record is over the size cap; select fewer `fields` to shrink it.';
    }
    if (answer.remaining !== undefined) {
      const cursor = globalThis.crypto.randomUUID();
      this.#expire();
      while (this.#held.size >= MAX_HELD) this.#held.delete(this.#held.keys().next().value as string);
      this.#held.set(cursor, { ...held, offset: next, expires: this.#now() + HELD_MS });
      answer.cursor = cursor;
    }
    return answer;
  }

  #expire(): void {
    const now = this.#now();
    for (const [cursor, held] of this.#held) if (held.expires <= now) this.#held.delete(cursor);
  }
}
