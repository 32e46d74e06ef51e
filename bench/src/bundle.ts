/**
 * Section 2, bundle size: what an application ships when it imports a client, bundled and minified for the browser,
 * then gzipped, by two bundlers: rolldown (Vite's production bundler) and esbuild (as tsup uses it). Both split code,
 * so what a client loads with a dynamic `import()` (its call path at the first call, its cache or rate limiter, the
 * zod schemas of `validateResponses`) is counted apart: "initial" is the entry chunk and every chunk it imports
 * statically, "lazy" the chunks only a dynamic import reaches. esbuild puts a module in the initial chunks whenever a
 * module loaded at import imports or re-exports it, even when only a dynamic import uses it, so its initial figure is
 * the larger one.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { rolldown } from 'rolldown';
import { BENCH_DIR, WORK_DIR } from './paths.ts';

export type Bundler = 'rolldown' | 'esbuild';

export interface BundleRow {
  bundler: Bundler;
  package: string;
  import: string;
  /** What the row shows: one operation or the whole public API, and through which path. */
  measures: string;
  initialMinBytes: number;
  initialGzipBytes: number;
  lazyGzipBytes: number;
  /** The source modules in the initial chunks, as `package/dist/file.js` (esbuild rows only). */
  initialModules?: string[];
}

interface BundleCase {
  package: string;
  measures: string;
  /** The import line shown in the report. */
  import: string;
  /** The module bundled: it must use what it imports, or esbuild drops it. */
  code: string;
}

/**
 * The service packages export one function per operation plus a bare client factory, so one operation can be
 * imported alone; the client class binds every operation.
 */
const CASES: BundleCase[] = [
  {
    package: '@agent-apis/directory',
    measures: 'one operation through the client class',
    import: "import { DirectoryClient } from '@agent-apis/directory'; client.stats()",
    code: "import { DirectoryClient } from '@agent-apis/directory';\nexport const stats = (baseUrl) => new DirectoryClient({ baseUrl }).stats();",
  },
  {
    package: '@agent-apis/directory',
    measures: 'whole client (every export)',
    import: "import * as directory from '@agent-apis/directory'",
    code: "import * as directory from '@agent-apis/directory';\nexport default directory;",
  },
  {
    package: '@agent-apis/directory',
    measures: 'one operation imported alone (getStats + createDirectoryClient)',
    import: "import { createDirectoryClient, getStats } from '@agent-apis/directory'",
    code: "import { createDirectoryClient, getStats } from '@agent-apis/directory';\nexport const stats = (baseUrl) => getStats(createDirectoryClient({ baseUrl }));",
  },
  {
    package: '@agent-apis/store',
    measures: 'one operation imported alone (getProduct + createStoreClient)',
    import: "import { createStoreClient, getProduct } from '@agent-apis/store'",
    code: "import { createStoreClient, getProduct } from '@agent-apis/store';\nexport const product = (accessToken, id) => getProduct(createStoreClient({ accessToken }), { path: { id } });",
  },
  {
    package: '@agent-apis/store',
    measures: 'one operation through the client class',
    import: "import { StoreClient } from '@agent-apis/store'; client.api.listProducts()",
    code: "import { StoreClient } from '@agent-apis/store';\nexport const list = (accessToken) => new StoreClient({ accessToken }).api.listProducts();",
  },
  {
    package: '@agent-apis/store',
    measures: 'whole client (every export)',
    import: "import * as store from '@agent-apis/store'",
    code: "import * as store from '@agent-apis/store';\nexport default store;",
  },
  {
    package: '@agent-apis/trust',
    measures: 'one operation through the client class',
    import: "import { TrustClient } from '@agent-apis/trust'; client.decide()",
    code: "import { TrustClient } from '@agent-apis/trust';\nexport const decide = (apiKey, target) => new TrustClient({ apiKey }).decide(target);",
  },
  {
    package: '@agent-apis/trust',
    measures: 'one operation imported alone (decide + createTrustClient)',
    import: "import { createTrustClient, decide } from '@agent-apis/trust'",
    code: "import { createTrustClient, decide } from '@agent-apis/trust';\nexport const run = (apiKey, body) => decide(createTrustClient({ apiKey }), { body });",
  },
  {
    package: '@agent-apis/trust',
    measures: 'whole client (every export)',
    import: "import * as trust from '@agent-apis/trust'",
    code: "import * as trust from '@agent-apis/trust';\nexport default trust;",
  },
  {
    package: 'openapi-fetch',
    measures: 'one operation (GET /api/stats; the types add no code)',
    import: "import createClient from 'openapi-fetch'; client.GET('/api/stats')",
    code: "import createClient from 'openapi-fetch';\nexport const stats = (baseUrl) => createClient({ baseUrl }).GET('/api/stats');",
  },
  {
    package: 'openapi-fetch',
    measures: 'whole client (every export)',
    import: "import * as openapiFetch from 'openapi-fetch'",
    code: "import * as openapiFetch from 'openapi-fetch';\nexport default openapiFetch;",
  },
];

/** Output paths reachable from `from` through imports of the given kind only. */
function staticClosure(metafile: Metafile, from: string): Set<string> {
  const reached = new Set<string>();
  const visit = (path: string) => {
    if (reached.has(path)) return;
    reached.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(from);
  return reached;
}

/** The case bundled by rolldown: initial and lazy chunks as above. */
async function measureWithRolldown(bundleCase: BundleCase, index: number): Promise<BundleRow> {
  // The entry lives under bench/ so that the packages resolve from its node_modules.
  const dir = join(WORK_DIR, 'bundle-rolldown');
  await mkdir(dir, { recursive: true });
  const entry = join(dir, `entry-${index}.js`);
  await writeFile(entry, bundleCase.code);
  try {
    const bundle = await rolldown({ input: entry, cwd: BENCH_DIR, platform: 'browser', logLevel: 'silent' });
    const { output } = await bundle.generate({ format: 'es', minify: true });
    await bundle.close();
    const chunks = new Map(output.flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
    const main = [...chunks.values()].find((chunk) => chunk.isEntry);
    if (!main) throw new Error(`${bundleCase.import}: rolldown produced no entry chunk`);
    const initial = new Set<string>();
    const visit = (name: string) => {
      if (initial.has(name) || !chunks.has(name)) return;
      initial.add(name);
      for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
    };
    visit(main.fileName);
    const row: BundleRow = { bundler: 'rolldown', ...caseFields(bundleCase), ...NO_BYTES };
    for (const [name, chunk] of chunks) {
      const gzipped = gzipSync(chunk.code, { level: 9 }).length;
      if (initial.has(name)) {
        row.initialMinBytes += Buffer.byteLength(chunk.code);
        row.initialGzipBytes += gzipped;
      } else row.lazyGzipBytes += gzipped;
    }
    return row;
  } finally {
    await rm(entry, { force: true });
  }
}

const NO_BYTES = { initialMinBytes: 0, initialGzipBytes: 0, lazyGzipBytes: 0 };

function caseFields(bundleCase: BundleCase): Pick<BundleRow, 'package' | 'import' | 'measures'> {
  return { package: bundleCase.package, import: bundleCase.import, measures: bundleCase.measures };
}

async function measureCase(bundleCase: BundleCase): Promise<BundleRow> {
  const result = await build({
    stdin: { contents: bundleCase.code, resolveDir: BENCH_DIR, sourcefile: 'entry.js', loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    absWorkingDir: BENCH_DIR,
    outdir: join(WORK_DIR, 'bundle'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const { metafile } = result;
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]?.entryPoint !== undefined);
  if (!entry) throw new Error(`${bundleCase.import}: esbuild produced no entry chunk`);
  const initial = staticClosure(metafile, entry);
  const initialModules = new Set<string>();
  for (const path of initial) {
    for (const input of Object.keys(metafile.outputs[path]?.inputs ?? {})) {
      const packageFile = /(?:^|\/)packages\/(.+)$/.exec(input)?.[1];
      if (packageFile) initialModules.add(packageFile);
    }
  }
  let initialMinBytes = 0;
  let initialGzipBytes = 0;
  let lazyGzipBytes = 0;
  for (const file of result.outputFiles) {
    if (!file.path.endsWith('.js')) continue;
    const gzipped = gzipSync(file.contents, { level: 9 }).length;
    if (initial.has(relative(BENCH_DIR, file.path))) {
      initialMinBytes += file.contents.length;
      initialGzipBytes += gzipped;
    } else {
      lazyGzipBytes += gzipped;
    }
  }
  return {
    bundler: 'esbuild',
    ...caseFields(bundleCase),
    initialMinBytes,
    initialGzipBytes,
    lazyGzipBytes,
    initialModules: [...initialModules].sort(),
  };
}

export async function measureBundles(): Promise<BundleRow[]> {
  const rows: BundleRow[] = [];
  for (const [index, bundleCase] of CASES.entries()) {
    rows.push(await measureWithRolldown(bundleCase, index));
    rows.push(await measureCase(bundleCase));
  }
  return rows;
}

function isOneOperationOfOurs(bundleCase: BundleCase): boolean {
  return (
    bundleCase.package.startsWith('@agent-apis/') && bundleCase.measures.startsWith('one operation imported alone')
  );
}

/** The one-operation imports of the service packages, bundled by both bundlers: what each costs at import. */
export async function oneOperationAtImport(): Promise<BundleRow[]> {
  const rows: BundleRow[] = [];
  for (const [index, bundleCase] of CASES.entries()) {
    if (!isOneOperationOfOurs(bundleCase)) continue;
    rows.push(await measureWithRolldown(bundleCase, index));
    rows.push(await measureCase(bundleCase));
  }
  return rows;
}

/**
 * The built modules (chunks of `scripts/build-package.ts`) that only a call loads: core's call path (the transport and
 * what only it uses: input checks, wire encoding, error building, redirects), the logger, response validation, the
 * rate limiter, the HTTP cache's engine and Redis tier, and each service's lazily built parts. esbuild keeps at
 * import every module a package entry reaches through its imports, so one of these at import means a module loaded
 * with the client (a package index, `@agent-apis/core` or `@agent-apis/core/service`) imports it. What the first-call
 * entry (`./call`) shares with the call path sits in one chunk beside it (`internal/call/attempt.js`).
 */
export const CALL_PATH_MODULES: readonly string[] = [
  'core/dist/send-call.js',
  'core/dist/internal/call/attempt.js',
  'core/dist/call.js',
  'core/dist/schema-validation.js',
  'core/dist/http-cache-engine.js',
  'core/dist/http-cache-redis.js',
  'core/dist/redis-values.js',
  'directory/dist/cache.js',
  'store/dist/rate-limit.js',
  'store/dist/rate-limit-fleet.js',
  'trust/dist/decision-cache-redis.js',
];
