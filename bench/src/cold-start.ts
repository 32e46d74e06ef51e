/**
 * Cold start: what a fresh process pays before its first answer, i.e. loading the client and making one call,
 * against plain `fetch` (nothing to load) and openapi-fetch. Each run is a new Node process against the canned
 * loopback server; the child times itself from just before the `import()` to the parsed first answer, so Node's
 * own start-up (the same for every variant) is left out. Variants take turns run by run; figures are medians.
 * Beside the time, the number of module files the import and the first call make Node load, counted in one more
 * process per variant (untimed: the counting hook slows every load it sees).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { modulesLoaded } from '@agent-apis/test-utils/module-loads';
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
  /** Module code run in the child with `origin` in scope; it must await the parsed first answer. */
  code: string;
}

function coldVariants(): ColdVariant[] {
  const decideBody = JSON.stringify({ target: { type: 'domain', value: 'github.com' } });
  const basic = `Basic ${btoa(`${STORE_AUTH.login}:${STORE_AUTH.authToken}`)}`;
  const checked = "if (error !== undefined || data === undefined) throw new Error('openapi-fetch failed');";
  return [
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
}

/** Milliseconds from just before the import to the parsed first answer, measured in a fresh process. */
async function coldRun(origin: string, variant: ColdVariant): Promise<number> {
  const script = `const origin = ${JSON.stringify(origin)};\nconst started = performance.now();\n${variant.code}\nconsole.log(performance.now() - started);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: BENCH_DIR });
  return Number(stdout.trim().split('\n').at(-1));
}

/** The module files (`file:` URLs: the packages' and their dependencies') the import and the first call make Node load. */
async function modulesLoadedBy(origin: string, variant: ColdVariant): Promise<number> {
  const segments = await modulesLoaded(BENCH_DIR, `const origin = ${JSON.stringify(origin)};\n${variant.code}`);
  return segments.flat().length;
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
}

export async function measureColdStart(): Promise<ColdStartRow[]> {
  const server = await startCannedServer();
  const variants = coldVariants();
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
    };
  });
}

export const COLD_START_RUNS = RUNS;
