/**
 * Every README example, run as written, the way a user runs it: the files of `packages/*\/examples/` (which the
 * READMEs embed verbatim) copied into a throwaway project outside the workspace that installs the packed packages
 * (`consumer-project.ts`), type-checked there under the strict consumer flags (`exactOptionalPropertyTypes`,
 * `noUncheckedIndexedAccess`, … and no DOM library), then each one run by Node at the `engines` floor
 * (Node 22.12, the npm `node-22` package; `.ts` run with `--experimental-strip-types`) against `pnpm mock`, started as its own process, with the base URLs and keys
 * it prints as the example's whole environment. A connection to any host but loopback is refused and reported (a
 * socket guard loaded with `--import`; MSW answers the `./msw` examples before any socket), and no run may report
 * one. The fleet examples get a real Redis, and run once more with Redis down. The printed listing names every
 * example with its result; a test fails when an example file has no run here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, waitForExit } from '@agent-apis/test-utils/processes';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { REPO_ROOT } from '@agent-apis/test-utils/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, installConsumer } from './consumer-project.ts';
import { execute, PROCESS_RUNTIMES } from './runtimes.ts';

const require = createRequire(import.meta.url);
const PACKAGES = ['core', 'directory', 'mcp', 'store', 'trust'] as const;
const STAND_INS = join(REPO_ROOT, 'packages', 'test-servers', 'src', 'stand-ins');
const records = (name: string) => JSON.parse(readFileSync(join(STAND_INS, `${name}-records.json`), 'utf8'));

/**
 * The strict flags a consumer may compile with, and no DOM: what the examples must type-check under. Libraries'
 * declarations are skipped here, as such a consumer does (msw's interceptors, rettime and the MCP SDK name DOM
 * types); {@link OWN_TYPES_TSCONFIG} checks ours.
 */
const STRICT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    useUnknownInCatchVariables: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['examples/**/*.ts'],
};

/** The same without skipping declarations, over the examples whose imports need no DOM-typed library. */
const OWN_TYPES_TSCONFIG = {
  extends: './tsconfig.json',
  compilerOptions: { skipLibCheck: false },
  include: ['examples/**/*.ts'],
  exclude: ['examples/*/testing.ts', 'examples/mcp/*.ts'],
};

/**
 * Loaded before each example: a connection to a host other than loopback is refused at the socket, before any DNS
 * lookup, and reported on stderr with {@link PUBLIC_HOST}, so an example that reaches a public host fails here,
 * offline or not. MSW answers the `./msw` examples' requests before any socket is opened.
 */
const NETWORK_GUARD = `import net from 'node:net';

const loopback = new Set(['127.0.0.1', 'localhost', '::1']);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === 'object' ? first : { port: first, host: args[1] };
  const host = options.host ?? 'localhost';
  if (options.path === undefined && !loopback.has(host)) {
    process.stderr.write('PUBLIC HOST ' + host + '\\n');
    process.nextTick(() => this.destroy(new Error('connection refused: ' + host + ' is not a loopback mock')));
    return this;
  }
  return connect.apply(this, args);
};
`;
const PUBLIC_HOST = 'PUBLIC HOST ';
/** Node 22.12 runs TypeScript files with this flag (on by default from 22.18); then the guard. */
const NODE_FLAGS = [
  '--experimental-strip-types',
  '--no-warnings=ExperimentalWarning',
  '--import',
  './network-guard.mjs',
];

/** `packages/<pkg>/examples/<name>.ts` as `<pkg>/<name>`, sorted. */
async function exampleFiles(): Promise<string[]> {
  const names: string[] = [];
  for (const pkg of PACKAGES) {
    const files = await readdir(join(REPO_ROOT, 'packages', pkg, 'examples')).catch(() => []);
    for (const file of files) if (file.endsWith('.ts')) names.push(`${pkg}/${file.slice(0, -3)}`);
  }
  return names.sort();
}

interface Expected {
  /** The lines the example prints, in order, with every `127.0.0.1:<port>` written `127.0.0.1:PORT`. */
  lines: (string | RegExp)[];
  /** Variables beyond the mock's, for an example that reads its own (`MY_SHOP_LOGIN_KEY`). */
  env?: (mock: Record<string, string>) => Record<string, string>;
  /** Expectations that need issue 30's library change (said in the listing when they fail). */
  pendingLibrary?: string;
}

const directory = records('directory');
/** The store's fixture with the records `pnpm mock` adds to it (`store-mock-records.json`). */
const store = records('store');
for (const [collection, extra] of Object.entries(records('store-mock').records as Record<string, unknown[]>)) {
  store.records[collection] = [...(store.records[collection] ?? []), ...extra];
}
const trust = records('trust');
const products = store.records['/products'] as { id: number; name: string }[];
const mug = products.find((product) => product.id === 42) as { name: string };
const paidOrders = (store.records['/orders'] as { id: number; total: number; currency: string }[]).map(
  (order) => `Paid order ${order.id}: ${order.total} ${order.currency}`,
);
const servers = directory.mcpServers as {
  owner: string;
  repo: string;
  title: string;
  url: string;
  stars: number;
  category: string;
  official: boolean;
  installCommand: string;
}[];
const distinct = (values: unknown[]) => new Set(values).size;
const reasons = (host: string) => (trust.targets[host].decision.reason_codes as string[]).join(', ');
const ISO_DATE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

/** What each example must print against `pnpm mock` (the stand-ins' records) and its other fixed inputs. */
const EXPECTED: Record<string, Expected> = {
  'core/pagination': {
    lines: ['first four: 1, 2, 3, 4 (pages at offsets 0, 3)', 'page of 3', 'page of 3', 'page of 1'],
  },
  'core/service-client': {
    lines: [
      'function: Mug #42',
      'api: Mug #7, status 200',
      'Invalid request for getProduct: path.id must be an integer, got NaN',
    ],
  },
  'directory/caching': {
    lines: [
      `${distinct(directory.skills.map((skill: { category: string }) => skill.category))} skill categories`,
      '1 response(s) cached',
    ],
    pendingLibrary: 's-maxage honoured by the in-process cache (the mock answers `public, s-maxage=300`)',
  },
  'directory/errors': {
    lines: ['no skill there (404 on getSkill)', 'query.limit must be at most 25, got 50'],
  },
  'directory/every-operation': {
    lines: ['Linter: /plugin install linter@official', '# Directory'],
  },
  'directory/pagination': {
    lines: [
      ...servers
        .filter((server) => server.category === 'databases' && server.official)
        .map((server) => `${server.owner}/${server.repo} ★${server.stars}`),
      '2 community skills',
      'plugins 1–2 of 3',
      'plugins 3–3 of 3',
    ],
  },
  'directory/quick-start': {
    lines: [
      ...servers
        .filter((server) => JSON.stringify(server).toLowerCase().includes('github'))
        .slice(0, 5)
        .map((server) => `${server.title} (${server.stars}): ${server.url}`),
      `install with: ${servers.find((server) => server.repo === 'github-mcp-server')?.installCommand}`,
    ],
  },
  'directory/response-validation': { lines: ['3 guides'] },
  'directory/retries': { lines: [`${directory.skills.length} skills, ${servers.length} tools`] },
  'directory/testing': { lines: ['PDF tools from community'] },
  'directory/timeouts': { lines: [`${distinct(servers.map((server) => server.category))} tool server categories`] },
  'mcp/authentication': {
    lines: [/"tool":"get_store_info"/],
    env: (mock) => ({ MY_SHOP_LOGIN_KEY: mock.STORE_LOGIN ?? '', MY_SHOP_AUTH_TOKEN: mock.STORE_AUTH_TOKEN ?? '' }),
  },
  // The mock's tool server answers every valid call, so the ToolError branch prints nothing here.
  'mcp/errors': { lines: ['not sent: arguments.limit must be at most 100'] },
  'mcp/quick-start': { lines: [/"tool":"search_mcp_servers"/, '1 content block(s)'] },
  'mcp/testing': { lines: ['Mug Shop (CLP)'] },
  'store/authentication': { lines: ['basic bearer'] },
  'store/errors': {
    lines: [
      'No such product: 404 Not Found on getProduct (GET /products/{id}.json) at http://127.0.0.1:PORT/v1/products/999999.json: Not Found',
    ],
  },
  'store/fleet': { lines: [`${products.length} products`] },
  'store/hooks': { lines: [`${mug.name} (status 200)`, 'same product: true'] },
  'store/pagination': {
    lines: [
      ...products.map((product) => `${product.id} ${product.name}`),
      `${store.records['/customers'].length} customers`,
      `${store.records['/products/42/reviews'].length} reviews of product 42`,
    ],
  },
  'store/quick-start': { lines: [`Product 42 is ${mug.name}`, ...paidOrders] },
  'store/rate-limit': { lines: [`${products.length} products, ${store.records['/customers'].length} customers`] },
  'store/response-validation': { lines: [`Product 42 is ${mug.name}`] },
  'store/retries-timeouts': {
    lines: [`${store.singletons.getStoreInfo.name} sells in ${store.singletons.getStoreInfo.currency}`],
  },
  'store/testing': { lines: ['Product 42 is Mug'] },
  'store/webhooks': { lines: [/^Listening for webhooks on port \d+$/, 'Order 5001 paid: 36.3'] },
  'trust/auth': { lines: ['proceed'] },
  'trust/caching': { lines: [new RegExp(`^true ${ISO_DATE}$`)] },
  'trust/decide-context': {
    lines: [new RegExp(`^ask a person first \\(escalate_to_human, valid until ${ISO_DATE}\\)$`)],
  },
  'trust/errors': {
    // A key the service refuses: the example's APIError branch.
    lines: ['401 from decide'],
    env: () => ({ ENTROPY0_API_KEY: 'sk_ent0_revoked' }),
  },
  'trust/fleet': { lines: ['proceed true'] },
  'trust/guard': {
    lines: [`approved by a reviewer despite ${reasons('secure-payments-example.com')}`, 'escalate_to_human'],
  },
  'trust/guarded-fetch': {
    lines: [
      'https://github.com/about 200 page of github.com',
      `https://paste.example.net/raw/1 200 withheld: ${reasons('paste.example.net')}`,
      `https://githvb.com/login denied: ${reasons('githvb.com')}`,
    ],
  },
  'trust/quick-start': { lines: [`proceed true ${reasons('github.com').replace(', ', ' ')}`] },
  'trust/testing': { lines: ['true'] },
  'trust/timeouts': { lines: [String(trust.domainScore.trustScore)] },
};

interface Result {
  example: string;
  outcome: 'passed' | 'FAILED' | 'skipped';
  note?: string;
}
const results: Result[] = [];

/** Every fetch to a public host an example tried, as `<example>: PUBLIC HOST <origin>`. */
const publicHosts: string[] = [];
const node22 = PROCESS_RUNTIMES.find((runtime) => runtime.name === 'Node 22 (floor)');
const anyPort = (line: string) => line.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');

/** `pnpm mock` as its own process on free ports; resolves to the environment it prints once every server is up. */
async function startMock(): Promise<{ child: ChildProcess; env: Record<string, string>; printed: () => string }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'packages', 'test-servers', 'src', 'mock', 'mock.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, MOCK_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const deadline = Date.now() + 600_000;
  while (!/^export DIRECTORY_MCP_URL=/m.test(printed)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pnpm mock did not start:\n${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const env: Record<string, string> = {};
  for (const [, name, value] of printed.matchAll(/^export (\w+)=(\S+)$/gm)) env[name as string] = value as string;
  return { child, env, printed: () => printed };
}

let work: string;
let project: ConsumerProject | undefined;
let mock: Awaited<ReturnType<typeof startMock>> | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-apis-examples-'));
  const sources = join(work, 'sources');
  for (const pkg of PACKAGES) {
    await cp(join(REPO_ROOT, 'packages', pkg, 'examples'), join(sources, 'examples', pkg), { recursive: true });
  }
  await writeFile(join(sources, 'tsconfig.json'), `${JSON.stringify(STRICT_TSCONFIG, null, 2)}\n`);
  await writeFile(join(sources, 'tsconfig.own-types.json'), `${JSON.stringify(OWN_TYPES_TSCONFIG, null, 2)}\n`);
  await writeFile(join(sources, 'network-guard.mjs'), NETWORK_GUARD);
  const typesNode = dirname(require.resolve('@types/node/package.json'));
  [project, mock] = await Promise.all([
    installConsumer(work, {
      sources,
      packages: ['redis', '@types/node', '@modelcontextprotocol/sdk'],
      roots: [typesNode],
    }),
    startMock(),
  ]);
}, 900_000);

afterAll(async () => {
  const width = Math.max(...results.map((result) => result.example.length));
  console.log(
    [
      `README examples, run as written from an outside project against pnpm mock (${results.filter((r) => r.outcome === 'passed').length} of ${results.length} passed):`,
      ...results
        .sort((a, b) => a.example.localeCompare(b.example))
        .map((r) => `  ${r.example.padEnd(width)}  ${r.outcome}${r.note ? `  (${r.note})` : ''}`),
    ].join('\n'),
  );
  if (mock?.child.exitCode === null) {
    mock.child.kill('SIGTERM');
    await waitForExit(mock.child, 10_000);
  }
  await project?.stop();
  if (!process.env.ECOSYSTEM_KEEP && work) await rm(work, { recursive: true, force: true });
});

/** The environment of one run: the mock's lines, and what the example needs beyond them. */
function runEnv(extra: Record<string, string>): Record<string, string> {
  return { ...mock?.env, ...extra };
}

/** Runs one example file with Node 22 in the consumer project; its stdout lines (ports written PORT) and stderr. */
/** An example's run ends on its own; the kill after `timeoutMs` only stops one that hangs. */
async function runExample(example: string, extra: Record<string, string>, timeoutMs = 240_000) {
  if (!project || !node22) throw new Error('the consumer project is not installed');
  const file = join('examples', `${example}.ts`);
  const run = await execute(node22.command, [...NODE_FLAGS, file], project.dir, timeoutMs, runEnv(extra));
  publicHosts.push(
    ...run.stderr
      .split('\n')
      .filter((line) => line.startsWith(PUBLIC_HOST))
      .map((line) => `${example}: ${line}`),
  );
  const lines = run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map(anyPort);
  return { ...run, lines };
}

function check(example: string, lines: string[], expected: (string | RegExp)[]): void {
  expect(lines.length, `${example} printed:\n${lines.join('\n')}`).toBe(expected.length);
  expected.forEach((line, i) => {
    if (typeof line === 'string') expect(lines[i], example).toBe(line);
    else expect(lines[i], example).toMatch(line);
  });
}

describe('README examples from an outside project', () => {
  it('has an expected run for every example file of every package, and none for a file that is gone', async () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(await exampleFiles());
  });

  it('type-checks every example under the strict consumer flags, without the DOM library', async () => {
    if (!project) throw new Error('the consumer project is not installed');
    const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
    for (const config of ['tsconfig.json', 'tsconfig.own-types.json']) {
      const typecheck = await execute(process.execPath, [tsc, '-p', config], project.dir, 480_000);
      expect(typecheck.stdout + typecheck.stderr, `tsc -p ${config}`).toBe('');
      expect(typecheck.failure).toBeUndefined();
    }
  }, 600_000);

  const plain = Object.keys(EXPECTED).filter((name) => !/fleet|webhooks/.test(name));
  it.each(plain)(
    '%s prints what it shows, against the mock',
    async (example) => {
      const expected = EXPECTED[example] as Expected;
      const run = await runExample(example, expected.env?.(mock?.env ?? {}) ?? {});
      try {
        expect(run.failure, `${example} failed:\n${run.stderr}`).toBeUndefined();
        check(example, run.lines, expected.lines);
        results.push({ example, outcome: 'passed' });
      } catch (error) {
        results.push({
          example,
          outcome: 'FAILED',
          note: expected.pendingLibrary
            ? `needs issue 30: ${expected.pendingLibrary}`
            : run.lines.join(' | ').slice(0, 120),
        });
        throw error;
      }
    },
    300_000,
  );

  it('store/webhooks listens, and prints a signed delivery it receives', async () => {
    if (!project || !node22) throw new Error('the consumer project is not installed');
    const token = 'hooks-token-example';
    const child = spawn(node22.command, [...NODE_FLAGS, join('examples', 'store', 'webhooks.ts')], {
      cwd: project.dir,
      env: { PATH: process.env.PATH ?? '', HOME: project.dir, ...runEnv({ PORT: '0', STORE_HOOKS_TOKEN: token }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      const deadline = Date.now() + 240_000;
      const listening = () => /Listening for webhooks on port (\d+)/.exec(printed)?.[1];
      while (!listening()) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`webhooks did not listen:\n${printed}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const port = listening();
      const order = (store.records['/orders'] as Record<string, unknown>[])[0];
      const body = JSON.stringify({ order });
      const signature = createHmac('sha256', token).update(body).digest('base64');
      const unsigned = await fetch(`http://127.0.0.1:${port}/hooks?event=order_paid`, { method: 'POST', body });
      const signed = await fetch(`http://127.0.0.1:${port}/hooks?event=order_paid`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'Jumpseller-Hmac-Sha256': signature },
      });
      expect(unsigned.status).toBeGreaterThanOrEqual(400);
      expect(signed.status).toBeLessThan(300);
      while (!printed.includes(' paid: ') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const lines = printed.split('\n').filter((line) => line.startsWith('Listening') || line.startsWith('Order'));
      check('store/webhooks', lines, EXPECTED['store/webhooks']?.lines ?? []);
      results.push({ example: 'store/webhooks', outcome: 'passed' });
    } catch (error) {
      results.push({ example: 'store/webhooks', outcome: 'FAILED', note: printed.slice(0, 120) });
      throw error;
    } finally {
      child.kill('SIGTERM');
      await waitForExit(child, 10_000);
    }
  });

  describeWithRedis('fleet examples', (redis) => {
    it.each(['store/fleet', 'trust/fleet'])(
      '%s shares through a real Redis',
      async (example) => {
        const run = await runExample(example, { REDIS_URL: redis.server.url });
        try {
          expect(run.failure, `${example} failed:\n${run.stderr}`).toBeUndefined();
          check(example, run.lines, EXPECTED[example]?.lines ?? []);
          results.push({ example, outcome: 'passed' });
        } catch (error) {
          results.push({ example, outcome: 'FAILED', note: run.lines.join(' | ').slice(0, 120) });
          throw error;
        }
      },
      300_000,
    );

    it.each(['store/fleet', 'trust/fleet'])(
      '%s with Redis down at start: the same answer on its own share, one warning, no hang',
      async (example) => {
        // A loopback port nothing listens on: Redis "down".
        const down = `redis://127.0.0.1:${await freePort()}`;
        const run = await runExample(example, { REDIS_URL: down }, 240_000);
        const name = `${example} (Redis down)`;
        try {
          expect(run.failure, `${example} with Redis down:\n${run.stderr}`).toBeUndefined();
          check(name, run.lines, EXPECTED[example]?.lines ?? []);
          results.push({ example: name, outcome: 'passed' });
        } catch (error) {
          results.push({
            example: name,
            outcome: 'FAILED',
            note: `needs issue 30: Redis connect timeout and degraded start (${run.failure ?? run.lines.join(' | ')})`.slice(
              0,
              160,
            ),
          });
          throw error;
        }
      },
    );
  });

  it('reached no host beyond loopback', () => {
    expect(publicHosts).toEqual([]);
  });
});
