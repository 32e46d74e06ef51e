import { readFile, writeFile } from 'node:fs/promises';

/** What we pin about a fetched upstream document. */
export interface SpecLock {
  service: string;
  /** Where the document is published. `{NAME}` placeholders are filled from the environment. */
  source: string;
  /** sha256 (hex) of the exact bytes we accepted. */
  sha256: string;
  /** The document's `openapi` field. */
  openapi: string;
  /** When these bytes were accepted (ISO 8601). */
  fetchedAt: string;
  /** Operation count of the upstream document as pinned (before the overlay). */
  operations: number;
}

export async function readLock(file: string): Promise<SpecLock> {
  const lock = JSON.parse(await readFile(file, 'utf8')) as Partial<SpecLock>;
  for (const key of ['service', 'source', 'sha256', 'openapi', 'fetchedAt'] as const) {
    if (typeof lock[key] !== 'string' || lock[key] === '') {
      throw new Error(`${file}: field "${key}" is missing or not a string`);
    }
  }
  if (!/^[0-9a-f]{64}$/.test(lock.sha256 ?? '')) throw new Error(`${file}: "sha256" is not 64 hex digits`);
  return lock as SpecLock;
}

export async function writeLock(file: string, lock: SpecLock): Promise<void> {
  await writeFile(file, `${JSON.stringify(lock, null, 2)}\n`);
}
