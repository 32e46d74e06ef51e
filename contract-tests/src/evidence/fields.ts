/**
 * The history-facing field collection: which fields every record of an operation carried this run, as dotted
 * paths from the record (`product.price`, `product.variants[].sku`). The history compares them night to night, so
 * a field the API always returned and then dropped is named even when the schema lets it go.
 */

/** How deep paths go, and how many one record may give (a hostile answer must not cost unbounded memory). */
const MAX_DEPTH = 5;
const MAX_PATHS = 400;

/** The fields present (not undefined, not null) in `record`; an array's field when every element has it. */
export function presentFields(record: unknown): Set<string> {
  const paths = new Set<string>();
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (depth > MAX_DEPTH || paths.size >= MAX_PATHS || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      const objects = value.filter((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
      if (objects.length === 0 || objects.length !== value.length) return;
      const sets = objects.map((item) => {
        const inner = new Set<string>();
        for (const [key, v] of Object.entries(item as object)) if (v !== undefined && v !== null) inner.add(key);
        return inner;
      });
      const common = [...(sets[0] ?? [])].filter((key) => sets.every((set) => set.has(key)));
      for (const key of common) {
        const path = `${prefix}[].${key}`;
        if (paths.size < MAX_PATHS) paths.add(path);
        const children = objects.map((item) => (item as Record<string, unknown>)[key]);
        // Nested objects inside array elements: the fields every element's object has.
        if (children.every((child) => child !== null && typeof child === 'object' && !Array.isArray(child))) {
          const inner = children.map((child) => presentFields(child));
          for (const sub of inner[0] ?? []) {
            if (inner.every((set) => set.has(sub)) && paths.size < MAX_PATHS) paths.add(`${path}.${sub}`);
          }
        }
      }
      return;
    }
    for (const [key, v] of Object.entries(value as object)) {
      if (v === undefined || v === null) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      if (paths.size < MAX_PATHS) paths.add(path);
      walk(v, path, depth + 1);
    }
  };
  walk(record, '', 0);
  return paths;
}

/** The records an answer carries: a list's entries, the one list inside an envelope, else the answer itself. */
export function recordsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    const lists = Object.values(body).filter(Array.isArray);
    if (lists.length === 1) return lists[0] as unknown[];
    return [body];
  }
  return [];
}

/** Accumulates the fields present in every record seen. */
export class FieldPresence {
  #common: Set<string> | undefined;
  #records = 0;

  add(record: unknown): void {
    if (record === null || typeof record !== 'object') return;
    const fields = presentFields(record);
    this.#records++;
    if (this.#common === undefined) this.#common = fields;
    else for (const field of this.#common) if (!fields.has(field)) this.#common.delete(field);
  }

  get records(): number {
    return this.#records;
  }

  /** Sorted dotted paths present in every record added. */
  always(): string[] {
    return [...(this.#common ?? [])].sort();
  }
}
