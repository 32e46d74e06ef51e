/**
 * The import budget of `pnpm size` (run by `pnpm test`): each service's one operation imported alone, bundled with
 * code splitting by rolldown (Vite's bundler), must cost at most 4 kB min+gzip at import. What loads later (the
 * call path at the first call, caches, limiters, validators) is printed beside it. The same import bundled by
 * esbuild with code splitting (as tsup uses it), which keeps at import every module a package entry reaches, must
 * leave every module of the call path out of what loads at import. Needs the packages built.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CALL_PATH_MODULES, oneOperationAtImport } from './bundle.ts';
import { REPO_ROOT } from './paths.ts';
import { MAX_ONE_OPERATION_GZIP_BYTES } from './targets.ts';

// A name the build no longer writes would make the check below pass without checking anything.
const unbuilt = CALL_PATH_MODULES.filter((module) => !existsSync(join(REPO_ROOT, 'packages', module)));
if (unbuilt.length > 0) {
  throw new Error(`CALL_PATH_MODULES names modules the build does not write: ${unbuilt.join(', ')}`);
}

const rows = await oneOperationAtImport();
let over = 0;
for (const row of rows) {
  if (row.bundler === 'esbuild') {
    const loadedEarly = (row.initialModules ?? []).filter((module) => CALL_PATH_MODULES.includes(module));
    if (loadedEarly.length > 0) over++;
    console.log(
      `${loadedEarly.length === 0 ? 'ok  ' : 'OVER'} ${row.import}, esbuild: ${row.initialGzipBytes} B min+gzip at import, ` +
        (loadedEarly.length === 0
          ? 'no module of the call path among them'
          : `call-path modules loaded at import: ${loadedEarly.join(', ')}`),
    );
    continue;
  }
  const ok = row.initialGzipBytes <= MAX_ONE_OPERATION_GZIP_BYTES;
  if (!ok) over++;
  console.log(
    `${ok ? 'ok  ' : 'OVER'} ${row.import}, rolldown: ${row.initialGzipBytes} B min+gzip at import ` +
      `(budget ${MAX_ONE_OPERATION_GZIP_BYTES} B), ${row.lazyGzipBytes} B gzip loaded later by the calls that need it`,
  );
}
if (over > 0) process.exitCode = 1;
