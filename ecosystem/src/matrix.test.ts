/**
 * The ecosystem matrix: the packed packages installed into a throwaway consumer project (`consumer-project.ts`),
 * then the same real calls (directory search + lookup, trust decide + guard, store list + get + a 404, one MCP
 * tool call) made from Node 22.12 (the `engines` floor), Node 24, Bun and Deno (each also starting the packed tool
 * server, `@agent-apis/mcp-server`, over stdio: list its tools, call one against the store stand-in), from a
 * Cloudflare Worker in workerd (Miniflare) that imports every entry point of every package, and from a page in a
 * real headless Chromium calling the directory on another origin (CORS). The consumer is also type-checked under
 * `nodenext` and `bundler` with the strictest flags. Every runtime gets its own loopback stand-ins (the trust
 * service answers overlapping calls of one key with 409). The printed table lists each runtime, its version and
 * the result per package.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { type PrismServer, startPrism } from '@agent-apis/test-servers/prism';
import { startOutboundTrap } from '@agent-apis/test-servers/registry';
import { startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import { STORE_RECORDS, startStoreStandIn } from '@agent-apis/test-servers/stand-ins/store';
import { startToolServer } from '@agent-apis/test-servers/tool-server';
import { SPECS_DIST } from '@agent-apis/test-utils/final-specs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import chromium from '@sparticuz/chromium';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, installConsumer } from './consumer-project.ts';
import { execute, PROCESS_RUNTIMES, SERVER_RUNTIMES } from './runtimes.ts';

const require = createRequire(import.meta.url);
const PACKAGES = ['core', 'directory', 'trust', 'store', 'mcp'] as const;
/**
 * Packed and installed with the others, but not a library for every runtime: `@agent-apis/mcp-server` is a tool
 * server process, not imported by the consumer; each process runtime starts its bin over stdio (`SERVER_RUNTIMES`).
 */
const NODE_ONLY_PACKAGES = ['mcp-server'] as const;
type PackageName = (typeof PACKAGES)[number];
type PartResult = { ok: true; detail: Record<string, unknown> } | { ok: false; error: string };
type Results = Record<PackageName, PartResult>;

const STORE = { login: 'ecosystem', authToken: 'ecosystem-token' };
const TRUST_KEY = 'sk_ent0_ecosystem';
const LOOKUP = { query: 'weather', owner: 'acme-labs', repo: 'weather-mcp' };
const TRUST_DOMAIN = 'docs.example.com';
const MISSING_PRODUCT = 999_999;

/** What the stand-ins' records make each package's calls return (see `consumer/calls.mjs`). */
function expectedResults(): Record<PackageName, Record<string, unknown>> {
  const records = JSON.parse(readFileSync(STORE_RECORDS, 'utf8')) as {
    records: { '/products': { id: number; name: string }[] };
  };
  const directory = JSON.parse(readFileSync(join(dirname(STORE_RECORDS), 'directory-records.json'), 'utf8')) as {
    mcpServers: { title: string }[];
  };
  const products = records.records['/products'].slice(0, 3);
  const coreManifest = JSON.parse(readFileSync(require.resolve('@agent-apis/core/package.json'), 'utf8')) as {
    version: string;
  };
  return {
    core: {
      version: coreManifest.version,
      errorBase: 'AgentApiError',
      stalledBody: 'APIConnectionTimeoutError within 5 s',
    },
    directory: {
      hits: directory.mcpServers
        .filter((server) => JSON.stringify(server).toLowerCase().includes(LOOKUP.query))
        .map((server) => server.title)
        .slice(0, 5),
      server: `${LOOKUP.owner}/${LOOKUP.repo}`,
    },
    trust: { action: trustExampleAction(), guarded: trustExampleAction(), refused: 'AgentApiError' },
    store: { ids: products.map((p) => p.id), name: products[0]?.name, missing: 'NotFoundError 404' },
    mcp: { blocks: 1 },
  };
}

/** The action of the first example of the trust spec's decide answer: what Prism serves. */
function trustExampleAction(): string {
  const spec = JSON.parse(readFileSync(join(SPECS_DIST, 'trust.openapi.json'), 'utf8')) as {
    paths: Record<
      string,
      {
        post: {
          responses: Record<
            string,
            {
              content: Record<
                string,
                { examples: Record<string, { value: { decision: { recommended_action: string } } }> }
              >;
            }
          >;
        };
      }
    >;
  };
  const examples = spec.paths['/v1/decide']?.post.responses['200']?.content['application/json']?.examples ?? {};
  return Object.values(examples)[0]?.value.decision.recommended_action ?? '';
}

interface Row {
  runtime: string;
  version: string;
  results: Partial<Record<PackageName, string>>;
}
const rows: Row[] = [];

function record(runtime: string, version: string, results: Partial<Results>, expected = expectedResults()): void {
  const cells: Row['results'] = {};
  for (const name of PACKAGES) {
    const result = results[name];
    if (!result) continue;
    const matches = result.ok && JSON.stringify(result.detail) === JSON.stringify(expected[name]);
    cells[name] = result.ok ? (matches ? 'pass' : 'FAIL (unexpected answer)') : `FAIL (${result.error.slice(0, 60)})`;
  }
  rows.push({ runtime, version, results: cells });
}

/** Rows in a fixed order whatever order the concurrent tests finished in. */
const ROW_ORDER = ['Node 22', 'Node 24', 'Bun', 'Deno', 'workerd', 'Chromium', 'tsc nodenext', 'tsc bundler'];
const rank = (row: Row) => ROW_ORDER.findIndex((prefix) => row.runtime.startsWith(prefix));

/** Runtime name → the result of the packed tool server over stdio under it. */
const serverCells = new Map<string, string>();

function table(): string {
  const header = ['runtime', 'version', ...PACKAGES, 'mcp-server (stdio)'];
  // A runtime whose package calls were filtered out or failed before recording still gets its server's cell.
  const named = new Set(rows.map((row) => row.runtime));
  const serverOnly = [...serverCells.keys()]
    .filter((runtime) => !named.has(runtime))
    .map((runtime): Row => ({ runtime, version: '', results: {} }));
  const lines = [...rows, ...serverOnly]
    .sort((a, b) => rank(a) - rank(b))
    .map((row) => [
      row.runtime,
      row.version,
      ...PACKAGES.map((name) => row.results[name] ?? '—'),
      serverCells.get(row.runtime) ?? '—',
    ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => (line[i] ?? '').length)));
  const format = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}

interface Services {
  config: Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * Loopback stand-ins of the directory and the store and a local directory tool server, and the consumer's config
 * for them and for the shared Prism mock of trust (the trust stand-in refuses a call that arrives before it has
 * released the previous one, which a fast runtime's back-to-back decide and guard can do on a loaded machine).
 */
async function startServices(trustUrl: string): Promise<Services> {
  const [directory, store, tools] = await Promise.all([
    startDirectoryStandIn(),
    startStoreStandIn(STORE),
    readSyncedToolList('directory').then(({ list }) => startToolServer({ tools: list.tools })),
  ]);
  const running: { close(): Promise<void> }[] = [directory, store, tools];
  return {
    config: {
      directory: { baseUrl: directory.url, lookup: LOOKUP },
      trust: { baseUrl: trustUrl, apiKey: TRUST_KEY, domain: TRUST_DOMAIN },
      store: { baseUrl: store.url, ...STORE, missingId: MISSING_PRODUCT },
      mcp: { url: tools.url },
    },
    stop: async () => {
      await Promise.all(running.map((server) => server.close()));
    },
  };
}

async function writeConfig(dir: string, config: Record<string, unknown>): Promise<void> {
  await writeFile(join(dir, 'config.mjs'), `export const config = ${JSON.stringify(config, null, 2)};\n`);
}

/** A folder of the consumer project holding its sources and a config of its own. */
async function runtimeFolder(project: ConsumerProject, name: string, config: Record<string, unknown>) {
  const dir = join(project.dir, name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
  await mkdir(dir, { recursive: true });
  for (const file of await readdir(project.dir)) {
    if (file.endsWith('.mjs')) await writeFile(join(dir, file), readFileSync(join(project.dir, file)));
  }
  await writeConfig(dir, config);
  return dir;
}

/** Bundles one consumer entry as a bundler would for the given platform (what wrangler and web builds do). */
async function bundle(entry: string, conditions: string[]): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions,
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error(`esbuild produced nothing for ${entry}`);
  return file.text;
}

/** The newest compatibility date the bundled workerd supports: its version is `1.YYYYMMDD.n`. */
function workerdDate(): string {
  const { version } = JSON.parse(
    readFileSync(join(dirname(require.resolve('miniflare/package.json')), '..', 'workerd', 'package.json'), 'utf8'),
  ) as { version: string };
  const day = version.split('.')[1] ?? '';
  return `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
}

describe('ecosystem: the packed packages in every runtime an agent runs in', () => {
  let work: string;
  let project: ConsumerProject;
  const prisms = {} as Record<'trust' | 'directory', PrismServer>;
  let trap: Awaited<ReturnType<typeof startOutboundTrap>>;
  /** Proxies and npm registry of the runtimes point at the trap: whatever would leave loopback lands there. */
  const trapEnv = () => ({
    HTTP_PROXY: trap.url,
    HTTPS_PROXY: trap.url,
    http_proxy: trap.url,
    https_proxy: trap.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    NPM_CONFIG_REGISTRY: `${trap.url}/`,
  });

  beforeAll(async () => {
    const started = Date.now();
    work = await mkdtemp(join(tmpdir(), 'agent-apis-ecosystem-'));
    // Prism mocks of trust (every runtime) and of the directory (the browser: it answers with CORS headers, as
    // the directory does; the stand-ins do not).
    const mock = async (service: 'trust' | 'directory') => {
      prisms[service] = await startPrism({
        name: `ecosystem-${service}`,
        spec: join(SPECS_DIST, `${service}.openapi.json`),
        logDir: join(work, 'prism'),
        readyTimeoutMs: 90_000,
      });
    };
    [project, trap] = await Promise.all([installConsumer(work), startOutboundTrap(), mock('trust'), mock('directory')]);
    console.info(`packed and installed in ${Math.round((Date.now() - started) / 1000)} s`);
  });

  afterAll(async () => {
    await Promise.all([project?.stop(), trap?.stop(), ...Object.values(prisms).map((prism) => prism.stop())]);
    // ECOSYSTEM_KEEP=1 leaves the consumer project in place to look into a failure.
    if (work && !process.env.ECOSYSTEM_KEEP) await rm(work, { recursive: true, force: true });
    else if (work) console.info(`consumer project kept in ${work}`);
    console.info(`\nEcosystem matrix (runtime × package):\n${table()}\n`);
  });

  it('installs every package from its tarball with nothing fetched from outside loopback', () => {
    expect([...project.tarballs.keys()].sort()).toEqual(
      [...PACKAGES, ...NODE_ONLY_PACKAGES].map((name) => `@agent-apis/${name}`).sort(),
    );
    expect(project.outbound).toBe(0);
  });

  it.concurrent.each(PROCESS_RUNTIMES)('runs the calls on $name', async (runtime) => {
    const version = await execute(runtime.command, runtime.versionArgs, tmpdir());
    expect(version.failure, version.stderr).toBeUndefined();
    const services = await startServices(prisms.trust.url);
    try {
      const dir = await runtimeFolder(project, runtime.name, services.config);
      const run = await execute(runtime.command, [...runtime.args, 'main.mjs'], dir, 60_000, trapEnv());
      expect(run.failure, `${run.stderr}\n${run.stdout}`).toBeUndefined();
      const results = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Results;
      record(runtime.name, runtime.version(version.stdout), results);
      expect(results).toEqual(
        Object.fromEntries(Object.entries(expectedResults()).map(([name, detail]) => [name, { ok: true, detail }])),
      );
    } finally {
      await services.stop();
    }
  });

  it.concurrent.each(SERVER_RUNTIMES)(
    'serves the packed MCP tool server over stdio on $name: lists tools, calls one against the store stand-in',
    async (runtime) => {
      const store = await startStoreStandIn(STORE);
      const dir = join(project.dir, 'node_modules', '@agent-apis', 'mcp-server');
      const client = new Client({ name: 'ecosystem-matrix', version: '1.0.0' });
      const transport = new StdioClientTransport({
        command: runtime.command,
        args: [...runtime.serverArgs, join(dir, 'dist', 'cli.js'), '--services', 'store'],
        cwd: project.dir,
        env: {
          ...trapEnv(),
          PATH: process.env.PATH ?? '',
          HOME: project.dir,
          NO_COLOR: '1',
          DENO_NO_UPDATE_CHECK: '1',
          DENO_DIR: join(project.dir, '.deno'),
          STORE_BASE_URL: store.url,
          STORE_LOGIN: STORE.login,
          STORE_AUTH_TOKEN: STORE.authToken,
        },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      try {
        await client.connect(transport);
        const { tools } = await client.listTools();
        const result = await client.callTool({
          name: 'store_call_operation',
          arguments: { operationId: 'listProducts', arguments: { limit: 3 }, fields: ['product.id'] },
        });
        const ids = (result.structuredContent as { data?: { product: { id: number } }[] } | undefined)?.data?.map(
          (entry) => entry.product.id,
        );
        const expected = (expectedResults().store as { ids: number[] }).ids;
        const same = JSON.stringify(ids) === JSON.stringify(expected);
        serverCells.set(runtime.name, same ? `pass (${tools.length} tools)` : 'FAIL (unexpected answer)');
        expect(tools.map((tool) => tool.name)).toContain('store_call_operation');
        expect(ids, JSON.stringify(result)).toEqual(expected);
      } catch (error) {
        if (!serverCells.has(runtime.name)) serverCells.set(runtime.name, `FAIL (${String(error).slice(0, 50)})`);
        throw new Error(`${String(error)}\nserver stderr:\n${stderr.slice(-2000)}`);
      } finally {
        await client.close();
        await store.close();
      }
    },
  );

  it.concurrent('loads every entry point of every package in workerd (Miniflare) and runs the calls', async () => {
    const services = await startServices(prisms.trust.url);
    const dir = await runtimeFolder(project, 'workerd', services.config);
    const all = [...project.entryPoints.entries()]
      .filter(([name]) => !NODE_ONLY_PACKAGES.some((nodeOnly) => name === `@agent-apis/${nodeOnly}`))
      .flatMap(([, specifiers]) => specifiers);
    console.log(`workerd: not imported (Node-only tool server: stdio and node:http): @agent-apis/mcp-server`);
    // `./msw` is for tests (Node, browsers); msw's own browser build, which workers resolve, needs `localStorage` at
    // import, so those entry points are left out here and said so. Every other entry point is imported.
    const imports = all.filter((specifier) => !specifier.endsWith('/msw'));
    const left = all.filter((specifier) => specifier.endsWith('/msw'));
    if (left.length > 0) console.log(`workerd: not imported (msw needs localStorage at import): ${left.join(', ')}`);
    await writeFile(
      join(dir, 'entry-points.mjs'),
      [
        ...imports.map((specifier, i) => `import * as entry${i} from '${specifier}';`),
        `export const entryPoints = { ${imports.map((specifier, i) => `'${specifier}': entry${i}`).join(', ')} };`,
        '',
      ].join('\n'),
    );
    const compatibilityDate = workerdDate();
    const script = await bundle(join(dir, 'worker.mjs'), ['workerd', 'worker', 'browser']);
    // The bundle is given as its one module, as wrangler uploads it: Miniflare's own module collection refuses any
    // `import()` whose specifier is not a literal (the clients' lazily loaded validators), which workerd allows.
    const mf = new Miniflare({
      modules: [{ type: 'ESModule', path: 'worker.mjs', contents: script }],
      compatibilityDate,
    });
    try {
      const response = await mf.dispatchFetch('http://worker.local/');
      const text = await response.text();
      expect(response.status, text).toBe(200);
      const { loaded, results } = JSON.parse(text) as { loaded: Record<string, number>; results: Results };
      record(`workerd (Miniflare, compat ${compatibilityDate})`, workerdVersion(), results);
      expect(Object.keys(loaded).sort()).toEqual([...imports].sort());
      for (const [specifier, count] of Object.entries(loaded)) expect(count, specifier).toBeGreaterThan(0);
      expect(results).toEqual(
        Object.fromEntries(Object.entries(expectedResults()).map(([name, detail]) => [name, { ok: true, detail }])),
      );
    } catch (error) {
      // A load failure names a line of the bundle: say which installed file it came from.
      // The outermost frame is the module-scope statement that ran at load.
      const line = [...String((error as Error).message).matchAll(/script-0:(\d+):\d+/g)].at(-1)?.[1];
      const origin = line ? bundleOrigin(script, Number(line)) : undefined;
      if (!rows.some((row) => row.runtime.startsWith('workerd'))) {
        const reason = origin ? `does not load: ${origin}` : String(error).slice(0, 60);
        rows.push({
          runtime: `workerd (Miniflare, compat ${compatibilityDate})`,
          version: workerdVersion(),
          results: Object.fromEntries(
            PACKAGES.map((name) => [
              name,
              origin?.includes(`@agent-apis/${name}/`) ? `FAIL (${reason})` : 'FAIL (bundle did not load)',
            ]),
          ),
        });
      }
      throw origin ? new Error(`${(error as Error).message}\n(bundle line ${line} comes from ${origin})`) : error;
    } finally {
      // A runtime that never started rejects its dispose with the start failure, which is reported above.
      await mf.dispose().catch(() => undefined);
      await services.stop();
    }
  });

  it.concurrent('calls the directory on another origin from a page in headless Chromium (CORS)', async () => {
    const prism = prisms.directory;
    const dir = await runtimeFolder(project, 'chromium', {
      directory: { baseUrl: prism.url, lookup: LOOKUP },
    });
    const script = await bundle(join(dir, 'page.mjs'), ['browser']);
    const page = createServer((request, response) => {
      if (request.url === '/page.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      } else {
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><title>consumer</title><script type="module" src="/page.js"></script>');
      }
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const address = page.address();
    const origin = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    const browser = await puppeteer.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
    });
    try {
      const tab = await browser.newPage();
      // The answers of the other origin, with the CORS header that let the page read them.
      const crossOrigin: string[] = [];
      tab.on('response', (response) => {
        if (response.url().startsWith(prism.url))
          crossOrigin.push(response.headers()['access-control-allow-origin'] ?? '');
      });
      await tab.goto(`${origin}/`);
      await tab.waitForFunction('window.consumerResult !== undefined');
      const result = (await tab.evaluate('window.consumerResult')) as PartResult;
      const version = (await browser.version()).replace(/^HeadlessChrome\//, '');
      rows.push({
        runtime: 'Chromium (page on another origin)',
        version,
        results: { directory: result.ok ? 'pass (CORS)' : `FAIL (${result.error.slice(0, 60)})` },
      });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(crossOrigin.length).toBeGreaterThanOrEqual(2);
      expect(new URL(prism.url).origin).not.toBe(origin);
      for (const allowed of crossOrigin) expect(['*', origin]).toContain(allowed);
      if (result.ok) {
        expect(Array.isArray(result.detail.hits)).toBe(true);
        expect(result.detail.server).toMatch(/^[^/]+\/[^/]+$/);
      }
    } finally {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
    }
  });

  it.concurrent.each(['nodenext', 'bundler'])('type-checks the consumer under moduleResolution %s', async (mode) => {
    const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
    // A backstop against a hang, not a speed bound: a loaded 2-core machine takes minutes.
    const check = await execute(process.execPath, [tsc, '-p', `tsconfig.${mode}.json`], project.dir, 600_000);
    rows.push({
      runtime: `tsc ${mode} (strictest flags)`,
      version: JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version,
      results: Object.fromEntries(PACKAGES.map((name) => [name, check.failure ? 'FAIL' : 'pass'])),
    });
    expect(check.failure, check.stdout).toBeUndefined();
  });
  // Not concurrent and declared last: it runs once every runtime above has finished.
  it('lets no runtime reach beyond loopback (their proxies and npm registry point at a trap)', () => {
    expect(trap.connections()).toBe(0);
  });
});

function workerdVersion(): string {
  return JSON.parse(
    readFileSync(join(dirname(require.resolve('miniflare/package.json')), '..', 'workerd', 'package.json'), 'utf8'),
  ).version;
}

/** The installed file a line of an esbuild bundle comes from (esbuild heads each module with a `// path` comment). */
function bundleOrigin(bundle: string, line: number): string | undefined {
  const lines = bundle.split('\n').slice(0, line);
  const header = lines.findLast((text) => /^\/\/ \S*node_modules\//.test(text));
  return header?.replace(/^\/\/ \S*?node_modules\//, '');
}
