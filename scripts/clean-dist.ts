/**
 * `node ../../scripts/clean-dist.ts`: removes the `dist` folder of the package it runs in, first step of every
 * package's `build`. What `tsc` writes is then all `dist` holds: no stale module of a deleted source, no stray
 * file (a `dist/.env`, a scratch tarball) that `pnpm pack` would ship.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

await rm(join(process.cwd(), 'dist'), { recursive: true, force: true });
