/**
 * The final specs as `pnpm main` leaves them: `specs/dist/<service>.openapi.json`, the one document per service
 * that codegen, Prism, the stand-ins and the contract suite all read. Only where they are and reading them as
 * JSON; what an operation means is `@agent-apis/specs/openapi`'s (this package never imports it: the specs
 * package tests with this one).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `specs/dist` of the repository. */
export const SPECS_DIST = join(import.meta.dirname, '..', '..', '..', 'specs', 'dist');

/** The path of `service`'s final spec (`directory`, `store`, `trust`). */
export function finalSpecFile(service: string): string {
  return join(SPECS_DIST, `${service}.openapi.json`);
}

/** `service`'s final spec, parsed. */
export async function readFinalSpec<Document = Record<string, unknown>>(service: string): Promise<Document> {
  return JSON.parse(await readFile(finalSpecFile(service), 'utf8')) as Document;
}

/** `service`'s final spec, parsed, for code that must have it before anything is awaited (a server's routes). */
export function readFinalSpecSync<Document = Record<string, unknown>>(service: string): Document {
  return JSON.parse(readFileSync(finalSpecFile(service), 'utf8')) as Document;
}
