/**
 * Cold start: what a fresh process pays before its first answer, i.e. loading the client and making one call,
 * against plain `fetch` (nothing to load) and openapi-fetch. Each run is a new Node process against the canned
 * loopback server; the child times itself from just before the `import()` to the parsed first answer, so Node's
 * own start-up (the same for every variant) is left out. Variants take turns run by run; figures are medians.
 * Beside the time, the number of module files the import and the first call make Node load, counted in one more
 * process per variant (untimed: the counting hook slows every load it sees).
 *
 * Each client is also run from one file: the package and core bundled by esbuild with no code splitting, every
 * dynamic import inlined. That is the client's own code without its module layout (the files an application's
 * bundler needs to leave the call path to the first call), so the gap between the two rows is what the layout costs
 * a cold Node process. A reference, not a target.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { startCannedServer } from './canned-server.ts';
import { median, ratio, round } from './measure.ts';
import { BENCH_DIR } from './paths.ts';

const run = promisify(execFile);

/**
 * Fresh processes per variant (after one warm-up run of each, which fills the file system cache). Two runs of 9 gave
 * the same build 1.29 and 1.13× the peer: 21 narrows the median's spread at about 30 s for the section.
 */
const RUNS = 21;

const STORE_AUTH = { login: 'bench-login', authToken: 'bench-auth-token' };
const TRUST_KEY = 'sk_ent0_bench_key';

type ColdGroup = 'directory' | 'store' | 'trust';

interface ColdVariant {
  group: ColdGroup;
  name: string;
  baseline?: true;
  /** The client run from one bundled file (see the top of this file): a reference beside the package. */
  oneFile?: true;
  /** Module code run in the child with `origin` in scope; it must await the parsed first answer. */
  code: string;
}

function coldVariants(oneFiles: ReadonlyMap<ColdGroup, string>): ColdVariant[] {
  const decideBody = JSON.stringify({ target: { type: 'domain', value: 'github.com' } });
  const basic = `Basic ${btoa(`${STORE_AUTH.login}:${STORE_AUTH.authToken}`)}`;
  const checked = "if (error !== undefined || data === undefined) throw new Error('openapi-fetch failed');";
  const variants: ColdVariant[] = [
    {
      group: 'directory',
      name: 'fetch',
      baseline: true,
      code: "await (await fetch(origin + '/api/stats')).json();",
    },
    {
      group: 'directory',
      name: 'DirectoryClient.stats()',
      code: "const { DirectoryClient } = await import('@agent-apis/directory');\nawait new DirectoryClient({ baseUrl: origin }).stats();",
    },
    {
      group: 'directory',
      name: 'openapi-fetch GET /api/stats',
      code: `const { default: createClient } = await import('openapi-fetch');\nconst { data, error } = await createClient({ baseUrl: origin }).GET('/api/stats');\n${checked}`,
    },
    {
      group: 'store',
      name: 'fetch',
      baseline: true,
      code: `await (await fetch(\`\${origin}/v1/products.json?limit=10&page=1\`, { headers: { authorization: ${JSON.stringify(basic)} } })).json();`,
    },
    {
      group: 'store',
      name: 'StoreClient.api.listProducts()',
      code: `const { StoreClient } = await import('@agent-apis/store');\nawait new StoreClient({ baseUrl: \`\${origin}/v1\`, ...${JSON.stringify(STORE_AUTH)} }).api.listProducts({ query: { limit: 10, page: 1 } });`,
    },
    {
      group: 'store',
      name: 'openapi-fetch GET /v1/products.json',
      code: `const { default: createClient } = await import('openapi-fetch');\nconst { data, error } = await createClient({ baseUrl: origin }).GET('/v1/products.json', { params: { query: { limit: 10, page: 1 } }, headers: { authorization: ${JSON.stringify(basic)} } });\n${checked}`,
    },
    {
      group: 'trust',
      name: 'fetch',
      baseline: true,
      code: `await (await fetch(\`\${origin}/api/v1/decide\`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': '${TRUST_KEY}' }, body: ${JSON.stringify(decideBody)} })).json();`,
    },
    {
      group: 'trust',
      name: 'TrustClient.decide() (cache off)',
      code: `const { TrustClient } = await import('@agent-apis/trust');\nawait new TrustClient({ baseUrl: \`\${origin}/api\`, apiKey: '${TRUST_KEY}', cache: false }).decide('github.com');`,
    },
    {
      group: 'trust',
      name: 'openapi-fetch POST /api/v1/decide',
      code: `const { default: createClient } = await import('openapi-fetch');\nconst { data, error } = await createClient({ baseUrl: origin }).POST('/api/v1/decide', { body: ${decideBody}, headers: { 'x-api-key': '${TRUST_KEY}' } });\n${checked}`,
    },
  ];
  // The same call, its import pointed at the client's one-file bundle.
  const oneFileVariants = variants.flatMap((variant) => {
    const file = oneFiles.get(variant.group);
    const specifier = `'@agent-apis/${variant.group}'`;
    if (file === undefined || !variant.code.includes(specifier)) return [];
    return [
      {
        group: variant.group,
        name: `${variant.name}, one file`,
        oneFile: true as const,
        code: variant.code.replace(specifier, JSON.stringify(pathToFileURL(file).href)),
      },
    ];
  });
  return [...variants, ...oneFileVariants];
}

/** Each client bundled into one file under `dir` (see the top of this file). */
async function oneFileBundles(dir: string): Promise<Map<ColdGroup, string>> {
  const groups: ColdGroup[] = ['directory', 'store', 'trust'];
  const files = new Map<ColdGroup, string>();
  for (const group of groups) {
    const outfile = join(dir, `${group}.mjs`);
    await build({
      entryPoints: [`@agent-apis/${group}`],
      absWorkingDir: BENCH_DIR,
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile,
      logLevel: 'error',
    });
    files.set(group, outfile);
  }
  return files;
}

/** Milliseconds from just before the import to the parsed first answer, measured in a fresh process. */
async function coldRun(origin: string, variant: ColdVariant): Promise<number> {
  const script = `const origin = ${JSON.stringify(origin)};\nconst started = performance.now();\n${variant.code}\nconsole.log(performance.now() - started);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: BENCH_DIR });
  return Number(stdout.trim().split('\n').at(-1));
}

/**
 * The module files (`file:` URLs: the packages' and their dependencies', not Node's built-ins) that the import and
 * the first call make Node load, recorded by a synchronous `load` hook registered before the import.
 */
async function modulesLoadedBy(origin: string, variant: ColdVariant): Promise<number> {
  const script = `import { registerHooks } from 'node:module';
let modules = 0;
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) modules++; return next(url, context); } });
const origin = ${JSON.stringify(origin)};
${variant.code}
console.log(modules);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: BENCH_DIR });
  return Number(stdout.trim().split('\n').at(-1));
}

export interface ColdStartRow {
  group: string;
  variant: string;
  mode: 'cold start';
  medianMs: number;
  perRequestUs: number;
  ratioToRaw: number;
  /** Module files Node loaded for the import and the first call. */
  modulesLoaded: number;
  /** The client run from one bundled file: a reference, not a client row of the targets. */
  oneFile?: true;
}

export async function measureColdStart(): Promise<ColdStartRow[]> {
  const bundleDir = await mkdtemp(join(tmpdir(), 'agent-apis-cold-start-'));
  const server = await startCannedServer();
  const variants = coldVariants(await oneFileBundles(bundleDir));
  const samples = new Map<ColdVariant, number[]>(variants.map((variant) => [variant, []]));
  const modules = new Map<ColdVariant, number>();
  try {
    for (let runIndex = -1; runIndex < RUNS; runIndex++) {
      for (const variant of variants) {
        const ms = await coldRun(server.origin, variant);
        if (!Number.isFinite(ms)) throw new Error(`cold start of ${variant.group} ${variant.name} printed no time`);
        if (runIndex >= 0) samples.get(variant)?.push(ms);
      }
    }
    for (const variant of variants) modules.set(variant, await modulesLoadedBy(server.origin, variant));
  } finally {
    server.stop();
    await rm(bundleDir, { recursive: true, force: true });
  }
  return variants.map((variant) => {
    const baseline = variants.find((other) => other.group === variant.group && other.baseline) ?? variant;
    const own = median(samples.get(variant) ?? []);
    return {
      group: variant.group,
      variant: variant.name,
      mode: 'cold start',
      medianMs: round(own),
      perRequestUs: round(own * 1_000),
      ratioToRaw: ratio(own, median(samples.get(baseline) ?? [])),
      modulesLoaded: modules.get(variant) ?? Number.NaN,
      ...(variant.oneFile ? { oneFile: true as const } : {}),
    };
  });
}

export const COLD_START_RUNS = RUNS;
