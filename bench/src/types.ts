/**
 * The `types` section: what the same store task (list products, create one with two variants, reprice it,
 * delete it) costs the TypeScript checker, written three ways: through the resource methods (the consumer file
 * `ecosystem/release-consumer/store-resources.ts`, as the consumer test type-checks it), through `store.api.*`,
 * and through openapi-fetch typed by openapi-typescript. Each is checked alone by `tsc --noEmit
 * --extendedDiagnostics` (strict, `exactOptionalPropertyTypes`, `skipLibCheck` so the packages' own
 * declarations are not counted); the section prints the median wall time of a few runs and the type
 * instantiations, each next to its ratio to openapi-fetch.
 */
import { copyFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { median, ratio, round } from './measure.ts';
import { BENCH_DIR, finalSpec, REPO_ROOT, WORK_DIR } from './paths.ts';
import { runCommand } from './run-command.ts';

export interface TypeCheckRow {
  through: string;
  file: string;
  wallMs: number;
  checkMs: number;
  instantiations: number;
  types: number;
  wallRatioToOpenapiFetch: number;
  instantiationRatioToOpenapiFetch: number;
}

const RUNS = 3;
const CONSUMER_FILE = join(REPO_ROOT, 'ecosystem', 'release-consumer', 'store-resources.ts');

/** The task of the consumer file through the raw operations. */
const THROUGH_API = `import type { StoreClient } from '@agent-apis/store';

export async function restockMugs(store: StoreClient): Promise<string[]> {
  const log: string[] = [];
  for await (const { product } of store.paginate('listProducts', { query: { limit: 50 } })) {
    if (product?.name?.startsWith('Mug')) log.push(\`listed \${product.id} \${product.name}\`);
  }

  const created = await store.api.createProduct({ body: { product: { name: 'Enamel mug', price: 12.5, status: 'available' } } });
  const mug = created.product;
  if (!mug) throw new Error('no product in the answer');
  const red = await store.api.createProductVariant({ path: { id: mug.id }, body: { variant: { price: 12.5, sku: 'MUG-RED', stock: 10 } } });
  const blue = await store.api.createProductVariant({ path: { id: mug.id }, body: { variant: { price: 13, sku: 'MUG-BLUE', stock: 4 } } });
  log.push(\`created \${mug.id} with variants \${red.variant?.id} and \${blue.variant?.id}\`);

  const repriced = await store.api.updateProduct({ path: { id: mug.id }, body: { product: { name: mug.name ?? 'Enamel mug', price: 14 } } });
  log.push(\`repriced \${repriced.product?.id} to \${repriced.product?.price}\`);

  await store.api.deleteProduct({ path: { id: mug.id }, signal: AbortSignal.timeout(10_000) });
  log.push(\`deleted \${mug.id}\`);
  return log;
}
`;

/** The same task through openapi-fetch, which leaves paging and error checks to the caller. */
const THROUGH_OPENAPI_FETCH = `import createClient from 'openapi-fetch';
import type { paths } from './store-paths.js';

export async function restockMugs(baseUrl: string, authorization: string): Promise<string[]> {
  const client = createClient<paths>({ baseUrl, headers: { authorization } });
  const log: string[] = [];
  for (let page = 1; ; page++) {
    const { data, error } = await client.GET('/products.json', { params: { query: { limit: 50, page } } });
    if (error !== undefined || data === undefined) throw new Error('listing failed');
    for (const { product } of data) {
      if (product?.name?.startsWith('Mug')) log.push(\`listed \${product.id} \${product.name}\`);
    }
    if (data.length < 50) break;
  }

  const created = await client.POST('/products.json', { body: { product: { name: 'Enamel mug', price: 12.5, status: 'available' } } });
  const mug = created.data?.product;
  if (!mug) throw new Error('create failed');
  const red = await client.POST('/products/{id}/variants.json', { params: { path: { id: mug.id } }, body: { variant: { price: 12.5, sku: 'MUG-RED', stock: 10 } } });
  const blue = await client.POST('/products/{id}/variants.json', { params: { path: { id: mug.id } }, body: { variant: { price: 13, sku: 'MUG-BLUE', stock: 4 } } });
  if (!red.data || !blue.data) throw new Error('variant failed');
  log.push(\`created \${mug.id} with variants \${red.data.variant?.id} and \${blue.data.variant?.id}\`);

  const repriced = await client.PUT('/products/{id}.json', { params: { path: { id: mug.id } }, body: { product: { name: mug.name ?? 'Enamel mug', price: 14 } } });
  if (!repriced.data) throw new Error('update failed');
  log.push(\`repriced \${repriced.data.product?.id} to \${repriced.data.product?.price}\`);

  const deleted = await client.DELETE('/products/{id}.json', { params: { path: { id: mug.id } }, signal: AbortSignal.timeout(10_000) });
  if (deleted.error !== undefined) throw new Error('delete failed');
  log.push(\`deleted \${mug.id}\`);
  return log;
}
`;

function tsconfig(file: string): string {
  const compilerOptions = {
    target: 'ES2023',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
  };
  return `${JSON.stringify({ compilerOptions, files: [file] }, null, 2)}\n`;
}

/** Writes the three fixtures and their tsconfigs into a scratch project that resolves the bench's packages. */
async function writeFixtures(dir: string): Promise<{ through: string; file: string }[]> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await symlink(join(BENCH_DIR, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  // Fields with a default stay optional in request bodies, as in the SDK's types.
  const paths = astToString(await openapiTS(pathToFileURL(finalSpec('store')), { defaultNonNullable: false }));
  await writeFile(join(dir, 'store-paths.d.ts'), `// Generated by openapi-typescript.\n${paths}`);
  await copyFile(CONSUMER_FILE, join(dir, 'resources.ts'));
  await writeFile(join(dir, 'api.ts'), THROUGH_API);
  await writeFile(join(dir, 'openapi-fetch.ts'), THROUGH_OPENAPI_FETCH);
  const fixtures = [
    { through: 'resource methods', file: 'resources.ts' },
    { through: 'store.api.*', file: 'api.ts' },
    { through: 'openapi-fetch', file: 'openapi-fetch.ts' },
  ];
  for (const { file } of fixtures) await writeFile(join(dir, `tsconfig.${file}.json`), tsconfig(file));
  return fixtures;
}

function diagnostic(output: string, label: string): number {
  const match = new RegExp(`^${label}:\\s+([\\d.]+)(s?)$`, 'm').exec(output);
  if (!match) throw new Error(`tsc --extendedDiagnostics printed no "${label}":\n${output}`);
  return Number(match[1]) * (match[2] === 's' ? 1_000 : 1);
}

export async function measureTypeChecks(): Promise<TypeCheckRow[]> {
  const dir = join(WORK_DIR, 'types');
  const fixtures = await writeFixtures(dir);
  const tsc = createRequire(join(BENCH_DIR, 'package.json')).resolve('typescript/bin/tsc');
  const measured = [];
  for (const { through, file } of fixtures) {
    const walls: number[] = [];
    let output = '';
    for (let run = 0; run < RUNS; run++) {
      const result = await runCommand(process.execPath, [tsc, '-p', `tsconfig.${file}.json`, '--extendedDiagnostics'], {
        cwd: dir,
      });
      if (result.exitCode !== 0) throw new Error(`tsc failed on ${file}:\n${result.output}`);
      walls.push(result.wallMs);
      output = result.output;
    }
    measured.push({
      through,
      file: file === 'resources.ts' ? 'ecosystem/release-consumer/store-resources.ts' : file,
      wallMs: round(median(walls), 0),
      checkMs: round(diagnostic(output, 'Check time'), 0),
      instantiations: diagnostic(output, 'Instantiations'),
      types: diagnostic(output, 'Types'),
    });
  }
  const peer = measured.find((row) => row.through === 'openapi-fetch');
  if (!peer) throw new Error('openapi-fetch was not measured');
  const rows = measured.map((row) => ({
    ...row,
    wallRatioToOpenapiFetch: ratio(row.wallMs, peer.wallMs),
    instantiationRatioToOpenapiFetch: ratio(row.instantiations, peer.instantiations),
  }));
  return rows;
}
