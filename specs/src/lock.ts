import { readFile, writeFile } from 'node:fs/promises';

/** What every pin records about a fetched upstream document (an OpenAPI document, a tools/list result). */
export interface Pin {
  service: string;
  /** Where the pinned bytes are published. `{NAME}` placeholders are filled from the environment. */
  source: string;
  /**
   * Where the newest version is published, when `source` is an immutable address (a commit, a release):
   * `specs:update` and `specs:diff` read this one. Defaults to `source`.
   */
  track?: string;
  /** sha256 (hex) of the exact bytes we accepted. */
  sha256: string;
  /** When these bytes were accepted (ISO 8601). */
  fetchedAt: string;
}

/** What we pin about a fetched upstream OpenAPI document. */
export interface SpecLock extends Pin {
  /** The document's `openapi` field. */
  openapi: string;
  /** Operation count of the upstream document as pinned (before the overlay). */
  operations: number;
}

export async function readLock(file: string): Promise<SpecLock> {
  return readPin<SpecLock>(file, ['openapi']);
}

/** Reads a pin file, checking the fields every pin has plus `stringFields`. */
export async function readPin<T extends Pin>(
  file: string,
  stringFields: readonly (keyof T & string)[] = [],
): Promise<T> {
  const lock = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  for (const key of ['service', 'source', 'sha256', 'fetchedAt', ...stringFields]) {
    if (typeof lock[key] !== 'string' || lock[key] === '') {
      throw new Error(`${file}: field "${key}" is missing or not a string`);
    }
  }
  if (!/^[0-9a-f]{64}$/.test(String(lock.sha256))) throw new Error(`${file}: "sha256" is not 64 hex digits`);
  return lock as unknown as T;
}

export async function writeLock(file: string, lock: Pin): Promise<void> {
  await writeFile(file, `${JSON.stringify(lock, null, 2)}\n`);
}
