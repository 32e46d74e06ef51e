/**
 * The public packages as a user receives them: `pnpm pack` each one (which turns `workspace:*` and `catalog:`
 * into versions), install the tarballs with npm into a fresh project outside the workspace, type-check a consumer
 * under `nodenext` and `bundler` resolution, run it against Prism mocks of the final specs, and run a vitest
 * suite there that uses the packages' `./msw` handlers. Every command of the consumer project runs on the Node
 * that runs this test (`process.execPath`), not on whatever `node` is first on PATH.
 *
 * The consumer's sources live in `contract-tests/consumer/`. The nodenext check also type-checks the packages'
 * declaration files (`skipLibCheck: false`); the bundler check skips them, as they were just checked.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_DIR } from './coverage.ts';
import { type PrismServer, startPrism } from './prism.ts';
import { loadContractSpec, SPECS_DIST } from './spec.ts';
import { catalogSpecifiers, isolatedEnv, type PackageManifest, publicPackages, REPO_ROOT, run } from './workspace.ts';

const CONSUMER_SOURCES = join(import.meta.dirname, '..', 'consumer');
/** What a consumer installs next to the packages: the TypeScript and test stack, at the workspace's pins. */
const CONSUMER_TOOLS = ['typescript', 'zod', 'msw', '@faker-js/faker', 'vitest', '@types/node'];
const SERVICES = ['directory', 'trust', 'store'] as const;
const FILE_TIMEOUT_MS = 240_000;

let project: string;
let installed: { name: string; version: string | undefined }[];
const mocks = new Map<string, PrismServer>();

/** Packs every public package into `destination` with pnpm, in parallel. */
async function packPublicPackages(destination: string) {
  const packages = await publicPackages();
  await Promise.all(
    packages.map((pkg) =>
      run('pnpm', ['pack', '--pack-destination', destination], { cwd: join(REPO_ROOT, pkg.dir), env: process.env }),
    ),
  );
  return packages.map((pkg) => ({ name: pkg.manifest.name, version: pkg.manifest.version }));
}

async function createConsumerProject(): Promise<void> {
  project = await mkdtemp(join(tmpdir(), 'agent-apis-consumer-'));
  const tarballs = join(project, 'tarballs');
  await mkdir(tarballs);
  installed = await packPublicPackages(tarballs);
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'agent-apis-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await cp(CONSUMER_SOURCES, project, { recursive: true });
  const tgzs = (await readdir(tarballs)).map((file) => join(tarballs, file));
  const tools = await catalogSpecifiers(CONSUMER_TOOLS);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tgzs, ...tools], {
    cwd: project,
    timeoutMs: 180_000,
  });
}

async function startMocks(): Promise<void> {
  const logDir = join(REPORTS_DIR, 'consumer');
  await Promise.all(
    SERVICES.map(async (service) => {
      const spec = join(SPECS_DIST, `${service}.openapi.json`);
      mocks.set(service, await startPrism({ name: `consumer-${service}`, spec, logDir, readyTimeoutMs: 90_000 }));
    }),
  );
}

function mockUrl(service: (typeof SERVICES)[number]): string {
  const mock = mocks.get(service);
  if (!mock) throw new Error(`no Prism mock for ${service}`);
  return mock.url;
}

/** Runs a file of an installed package's bin (or the consumer's own file) with the Node running this test. */
function node(args: string[], env: Record<string, string> = {}): Promise<string> {
  return run(process.execPath, args, { cwd: project, env: isolatedEnv(env), timeoutMs: 120_000 });
}

interface JsonMedia {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
type PathItem = Record<string, { responses: Record<string, { content?: Record<string, JsonMedia> }> }>;

/** The example a final spec gives for an operation's success response (the one Prism serves first). */
async function successExample(service: (typeof SERVICES)[number], operationId: string): Promise<unknown> {
  const spec = await loadContractSpec(service);
  const operation = spec.operations.find((candidate) => candidate.id === operationId);
  const pathItem = operation && (spec.document.paths?.[operation.path] as PathItem | undefined);
  const media =
    operation &&
    pathItem?.[operation.method.toLowerCase()]?.responses[String(operation.successStatus)]?.content?.[
      'application/json'
    ];
  if (!media) throw new Error(`${service}: ${operationId} has no JSON success response`);
  return media.example ?? Object.values(media.examples ?? {})[0]?.value;
}

describe('the packed packages in a fresh consumer project', { timeout: FILE_TIMEOUT_MS, concurrent: true }, () => {
  beforeAll(async () => {
    const started = Date.now();
    await Promise.all([createConsumerProject(), startMocks()]);
    console.info(`consumer project ready in ${Math.round((Date.now() - started) / 1000)} s: ${project}`);
  }, FILE_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([...mocks.values()].map((mock) => mock.stop()));
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('installs every public package from its tarball, with no workspace or catalog specifier left', async () => {
    expect(installed.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['@agent-apis/core', '@agent-apis/directory', '@agent-apis/store', '@agent-apis/trust']),
    );
    for (const { name, version } of installed) {
      const manifestFile = join(project, 'node_modules', name, 'package.json');
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as PackageManifest;
      expect(manifest.version, name).toBe(version);
      const ranges = Object.values({ ...manifest.dependencies, ...manifest.peerDependencies });
      expect(
        ranges.filter((range) => /^(workspace|catalog):/.test(range)),
        name,
      ).toEqual([]);
    }
  });

  it('type-checks the consumer under moduleResolution nodenext', async () => {
    await node(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.nodenext.json']);
  });

  it('type-checks the consumer under moduleResolution bundler', async () => {
    await node(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bundler.json']);
  });

  it('runs the consumer against Prism mocks of the final specs', async () => {
    const output = await node(['main.ts'], {
      DIRECTORY_BASE_URL: mockUrl('directory'),
      TRUST_BASE_URL: mockUrl('trust'),
      ENTROPY0_API_KEY: 'sk_ent0_consumer',
      STORE_BASE_URL: mockUrl('store'),
      STORE_LOGIN: 'consumer',
      STORE_AUTH_TOKEN: 'consumer-token',
    });
    const summary = JSON.parse(output.trim().split('\n').at(-1) ?? '') as {
      servers: string[];
      decision: { requestId: string; action: string; shouldFetch: boolean };
      productIds: unknown[];
      refusedField?: string;
    };

    const page = (await successExample('directory', 'listMcpServers')) as {
      results: { owner: string; repo: string }[];
    };
    expect(summary.servers).toEqual(page.results.map((server) => `${server.owner}/${server.repo}`));
    const decision = (await successExample('trust', 'decide')) as {
      request_id: string;
      decision: { recommended_action: string };
    };
    expect(decision.decision.recommended_action).toBe('proceed');
    expect(summary.decision).toEqual({ requestId: decision.request_id, action: 'proceed', shouldFetch: true });
    expect(summary.productIds.length).toBeGreaterThan(0);
    for (const id of summary.productIds) expect(Number.isInteger(id)).toBe(true);
    expect(summary.refusedField).toBe('query.limit');
  });

  it('runs a vitest suite in the consumer project against the packages’ ./msw handlers', async () => {
    await node(['node_modules/vitest/vitest.mjs', 'run', '--reporter=json', '--outputFile=vitest-results.json']);
    const results = JSON.parse(await readFile(join(project, 'vitest-results.json'), 'utf8')) as {
      numTotalTests: number;
      numPassedTests: number;
    };
    // consumer/msw.test.ts has four tests; all of them ran and passed.
    expect(results).toMatchObject({ numTotalTests: 4, numPassedTests: 4 });
  });
});
