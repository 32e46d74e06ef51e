/**
 * The identity check: a lookup's answer must be the record asked for. The keys compared are the ones the
 * operation table declares for the lookup's path parameters (the link or list rule of `contract-spec/sources.ts`: the path
 * parameter `id` of `getProduct` comes from `/0/product/id` of `listProducts`, so the answer's `/product/id` must
 * be the id asked for). A key the answer does not carry is not compared (another shape of record, a list).
 */
import { atPointer } from '../contract-spec/spec.ts';

/** One key of the record asked for: the parameter, where the record carries it, and the value asked for. */
export interface IdentityKey {
  parameter: string;
  /** JSON pointer inside one record (`/product/id`). */
  pointer: string;
  value: unknown;
}

/** The pointer inside one entry of a list pointer (`/0/product/id` → `/product/id`, `/results/0/slug` → `/slug`). */
export function recordPointer(listPointer: string): string | undefined {
  const match = /\/\d+(\/.*)$/.exec(listPointer);
  return match?.[1];
}

/** Two key values name the same record: equal as text, or differing only in case (an e-mail, a slug). */
function sameKey(asked: unknown, answered: unknown): boolean {
  const a = String(asked);
  const b = String(answered);
  return a === b || a.toLowerCase() === b.toLowerCase();
}

/** The keys on which `answer` is not the record asked for, as `field` and what it carried. */
export function identityMismatches(
  answer: unknown,
  keys: readonly IdentityKey[],
): { parameter: string; field: string; asked: unknown; answered: unknown }[] {
  if (Array.isArray(answer) || answer === null || typeof answer !== 'object') return [];
  const mismatches = [];
  for (const key of keys) {
    const answered = atPointer(answer, key.pointer);
    if (answered === undefined || answered === null || typeof answered === 'object') continue;
    if (!sameKey(key.value, answered)) {
      const field = key.pointer.slice(1).replaceAll('/', '.');
      mismatches.push({ parameter: key.parameter, field, asked: key.value, answered });
    }
  }
  return mismatches;
}
