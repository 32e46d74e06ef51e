/**
 * The import budget of `pnpm size` (run by `pnpm test`): each service's one operation imported alone, bundled with
 * code splitting by rolldown (Vite's bundler), must cost at most 4 kB min+gzip at import. What loads later (the
 * call path at the first call, caches, limiters, validators) is printed beside it. Needs the packages built.
 */
import { oneOperationAtImport } from './bundle.ts';
import { MAX_ONE_OPERATION_GZIP_BYTES } from './targets.ts';

const rows = await oneOperationAtImport();
let over = 0;
for (const row of rows) {
  const ok = row.initialGzipBytes <= MAX_ONE_OPERATION_GZIP_BYTES;
  if (!ok) over++;
  console.log(
    `${ok ? 'ok  ' : 'OVER'} ${row.import}: ${row.initialGzipBytes} B min+gzip at import ` +
      `(budget ${MAX_ONE_OPERATION_GZIP_BYTES} B), ${row.lazyGzipBytes} B gzip loaded later by the calls that need it`,
  );
}
if (over > 0) process.exitCode = 1;
