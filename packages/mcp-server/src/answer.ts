/**
 * Answers an agent can use: a `fields` selection, and a byte cap that pages a large answer by whole records, each
 * page a complete JSON document with a cursor to the rest (`answer_more`). An answer with no list to page is sent
 * as consecutive parts of its JSON text (`part`), each a complete JSON string. Held remainders are bounded in
 * count, age and bytes: per pager (one per session) and per server (a {@link HeldBudget} the pagers share), the
 * oldest dropped first. The caller scrubs an answer before it is paged (a cut cannot split a credential).
 */
/** Default cap on one answer's JSON text, in UTF-8 bytes (about 6k tokens). */
export const DEFAULT_MAX_ANSWER_BYTES = 24_000;
/** Default bytes (of JSON text) one pager (one session) holds for `answer_more`. */
export const DEFAULT_MAX_HELD_BYTES = 4 * 1024 * 1024;
/** Default bytes all the pagers of one server hold together. */
export const DEFAULT_MAX_HELD_BYTES_TOTAL = 32 * 1024 * 1024;
/** Remainders held for `answer_more` at most (the oldest is dropped first). */
const MAX_HELD = 32;
/** How long a remainder is held. */
const HELD_MS = 10 * 60_000;
/** Cursors dropped for the budget that are remembered, to say so when one comes back. */
const MAX_DROPPED = 1024;

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
  /** The JSON text of each record (held as text: the budget counts what memory holds). */
  items: string[];
  /** The UTF-8 bytes of each record's JSON text. */
  sizes: number[];
  /** Set instead of `items` for text parts. */
  text?: string;
  offset: number;
  expires: number;
  /** Bytes of what is left to send. */
  bytes: number;
}

const encoder = new TextEncoder();
const utf8 = (text: string) => encoder.encode(text).length;
const bytes = (value: unknown) => utf8(JSON.stringify(value) ?? 'null');

/**
 * The bytes held for `answer_more` by every pager of one server, oldest first: admitting a remainder drops the
 * oldest ones (of any pager) until it fits.
 */
export class HeldBudget {
  readonly limit: number;
  readonly #entries = new Map<string, { bytes: number; drop: () => void }>();
  #used = 0;

  constructor(limit = DEFAULT_MAX_HELD_BYTES_TOTAL) {
    this.limit = limit;
  }

  /** Bytes held now. */
  used(): number {
    return this.#used;
  }

  /** Takes `bytes` for `cursor`, dropping the oldest remainders first; false when it can never fit. */
  admit(cursor: string, bytes: number, drop: () => void): boolean {
    if (bytes > this.limit) return false;
    for (const [oldest, entry] of this.#entries) {
      if (this.#used + bytes <= this.limit) break;
      this.release(oldest);
      entry.drop();
    }
    this.#entries.set(cursor, { bytes, drop });
    this.#used += bytes;
    return true;
  }

  release(cursor: string): void {
    const entry = this.#entries.get(cursor);
    if (!entry) return;
    this.#entries.delete(cursor);
    this.#used -= entry.bytes;
  }
}

export interface HeldOptions {
  /** Bytes this pager holds at most (default {@link DEFAULT_MAX_HELD_BYTES}). */
  maxHeldBytes?: number | undefined;
  /** The server's budget shared with other pagers (default: one of its own). */
  budget?: HeldBudget | undefined;
}

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
  readonly #dropped = new Set<string>();
  readonly #maxBytes: number;
  readonly #now: () => number;
  readonly #maxHeld: number;
  readonly #budget: HeldBudget;
  #heldBytes = 0;

  constructor(maxBytes = DEFAULT_MAX_ANSWER_BYTES, now: () => number = Date.now, held: HeldOptions = {}) {
    this.#maxBytes = maxBytes;
    this.#now = now;
    this.#maxHeld = held.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
    this.#budget = held.budget ?? new HeldBudget(Math.max(this.#maxHeld, DEFAULT_MAX_HELD_BYTES_TOTAL));
  }

  /** Bytes this pager holds now. */
  heldBytes(): number {
    return this.#heldBytes;
  }

  /** `data` as one answer, or its first page with a cursor when its JSON text is over the cap. */
  answer(data: unknown): Answer {
    if (bytes({ data }) <= this.#maxBytes) return { data };
    const listPath = findList(data);
    if (listPath) {
      const list = getAt(data, listPath) as unknown[];
      const shell = withListAt(data, listPath, []);
      if (bytes({ data: shell }) < this.#maxBytes / 2) {
        const items = list.map((item) => JSON.stringify(item) ?? 'null');
        const sizes = items.map(utf8);
        const total = sizes.reduce((sum, size) => sum + size + 1, 0);
        return this.#page({ shell, listPath, items, sizes, offset: 0, expires: 0, bytes: total });
      }
    }
    const text = JSON.stringify(data);
    const size = utf8(text);
    return this.#page({
      shell: undefined,
      listPath: [],
      items: [],
      sizes: [],
      text,
      offset: 0,
      expires: 0,
      bytes: size,
    });
  }

  /** The next page for `cursor`; `undefined` when it is unknown, expired or dropped (see {@link missing}). */
  more(cursor: string): Answer | undefined {
    this.#expire();
    const held = this.#held.get(cursor);
    if (!held) return undefined;
    this.#forget(cursor);
    return this.#page(held);
  }

  /** Why `cursor` has no page: dropped for the byte budget, or unknown or expired. */
  missing(cursor: string): string {
    return this.#dropped.has(cursor)
      ? 'This cursor’s answer was dropped to keep the memory of held answers bounded (older answers go first). ' +
          'Call the tool that returned it again, with `fields` or narrower arguments so the answer is smaller.'
      : 'Unknown or expired cursor: call the tool that returned it again (cursors last 10 minutes).';
  }

  /** Drops everything held (a session ended). */
  clear(): void {
    for (const cursor of [...this.#held.keys()]) this.#forget(cursor);
  }

  #page(held: Held): Answer {
    const budget = this.#maxBytes - 200;
    let answer: Answer;
    let next: number;
    let left: number;
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
      // The whole text stays in memory until the last part is sent: it is what is counted.
      left = held.bytes;
    } else {
      next = held.offset;
      let size = bytes({ data: held.shell });
      let sent = 0;
      while (next < held.items.length) {
        const cost = (held.sizes[next] ?? 0) + 1;
        if (next > held.offset && size + cost > budget) break;
        size += cost;
        sent += cost;
        next += 1;
      }
      const page = held.items.slice(held.offset, next).map((item) => JSON.parse(item) as unknown);
      answer = { data: withListAt(held.shell, held.listPath, page) };
      if (next < held.items.length) answer.remaining = held.items.length - next;
      if (size > budget) answer.note = 'A single record is over the size cap; select fewer `fields` to shrink it.';
      left = held.bytes - sent;
    }
    if (answer.remaining !== undefined) {
      const cursor = globalThis.crypto.randomUUID();
      if (this.#hold(cursor, { ...held, offset: next, expires: this.#now() + HELD_MS, bytes: left })) {
        answer.cursor = cursor;
      } else {
        answer.note =
          `The rest (${left} bytes) is more than this server holds for answer_more (${this.#maxHeld} bytes); ` +
          'call again selecting fewer `fields` or with narrower arguments.';
      }
    }
    return answer;
  }

  /** Holds `held` under `cursor` within the count, the pager's bytes and the server's budget; false if it cannot. */
  #hold(cursor: string, held: Held): boolean {
    this.#expire();
    if (held.bytes > this.#maxHeld) return false;
    const oldest = () => this.#held.keys().next().value as string;
    while (this.#held.size >= MAX_HELD) this.#drop(oldest());
    while (this.#heldBytes + held.bytes > this.#maxHeld) this.#drop(oldest());
    if (!this.#budget.admit(cursor, held.bytes, () => this.#drop(cursor, false))) return false;
    this.#held.set(cursor, held);
    this.#heldBytes += held.bytes;
    return true;
  }

  /** Lets go of `cursor`'s remainder, remembering that it was dropped for the budget. */
  #drop(cursor: string, release = true): void {
    if (!this.#held.has(cursor)) return;
    this.#forget(cursor, release);
    this.#dropped.add(cursor);
    if (this.#dropped.size > MAX_DROPPED) this.#dropped.delete(this.#dropped.values().next().value as string);
  }

  #forget(cursor: string, release = true): void {
    const held = this.#held.get(cursor);
    if (!held) return;
    this.#held.delete(cursor);
    this.#heldBytes -= held.bytes;
    if (release) this.#budget.release(cursor);
  }

  #expire(): void {
    const now = this.#now();
    for (const [cursor, held] of this.#held) if (held.expires <= now) this.#forget(cursor);
  }
}
