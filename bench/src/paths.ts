/** Where the bench reads from and writes to. */
import { join } from 'node:path';

/** `bench/` */
export const BENCH_DIR = join(import.meta.dirname, '..');
/** The repository root. */
export const REPO_ROOT = join(BENCH_DIR, '..');
/** Scratch space of a run (gitignored). */
export const WORK_DIR = join(BENCH_DIR, '.work');
/** openapi-typescript output for the openapi-fetch peer (gitignored). */
export const GENERATED_DIR = join(BENCH_DIR, 'generated');
/** The final spec of a service, as the clients are generated from it. */
export function finalSpec(service: 'directory' | 'store' | 'trust'): string {
  return join(REPO_ROOT, 'specs', 'dist', `${service}.openapi.json`);
}
