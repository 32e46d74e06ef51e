/**
 * The release path, outside the real repository. First `changeset version` alone on a replica of the workspace's
 * manifests. Then the whole path against a private npm registry on loopback (Verdaccio, `./registry.ts`): a copy
 * of the repository (its tracked files, an offline `pnpm install` from the store, the built `dist` folders)
 * gets a changeset, `changeset version`, and the project's publish step (`pnpm publish-packages`, the last step
 * of `pnpm release`), with only an `.npmrc` naming the registry. A fresh project outside the workspace then
 * installs the packages by name and version from that registry, together with its third-party tools (which the
 * registry got from the workspace's own node_modules), type-checks a consumer under `nodenext` and `bundler`,
 * runs it against Prism mocks of the final specs, and runs a vitest suite on the packages' `./msw` handlers.
 * Each package is also installed alone by name into a project of its own (with the README's `.npmrc` scope line),
 * and the agent program of `ecosystem/agent/` is installed by name, type-checked under the strictest
 * Node-only settings and run against the mocks.
 * Every command of that path has its HTTP(S) proxy set to a loopback trap, and the trap must see no connection:
 * nothing leaves loopback, the public registry included. Commands of the consumer project run on the Node that
 * runs this test (`process.execPath`), not on whatever `node` is first on PATH.
 *
 * The consumer's sources live in `ecosystem/release-consumer/`. The nodenext check also type-checks the packages'
 * declaration files (`skipLibCheck: false`); the bundler check skips them, as they were just checked.
 */
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { listOperations, type OpenApiDocument } from '@agent-apis/specs/openapi';
import { type PrismServer, startPrism } from '@agent-apis/test-servers/prism';
import { type Registry, seedFromWorkspace, startOutboundTrap, startRegistry } from '@agent-apis/test-servers/registry';
import { startToolServer } from '@agent-apis/test-servers/tool-server';
import { finalSpecFile, readFinalSpec } from '@agent-apis/test-utils/final-specs';
import {
  catalogSpecifiers,
  isolatedEnv,
  type PackageManifest,
  publicPackages,
  REPO_ROOT,
  run,
  type WorkspacePackage,
  workspacePackages,
} from '@agent-apis/test-utils/workspace';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loopbackOnlyEnv } from '../consumer-project.ts';

const changesetBin = join(dirname(createRequire(import.meta.url).resolve('@changesets/cli/package.json')), 'bin.js');

const replicas: string[] = [];
afterEach(async () => {
  await Promise.all(replicas.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function replicateWorkspace(): Promise<{ root: string; packages: WorkspacePackage[] }> {
  const root = await mkdtemp(join(tmpdir(), 'agent-apis-release-'));
  replicas.push(root);
  const packages = await workspacePackages();
  const files = ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json'];
  for (const pkg of packages) files.push(join(pkg.dir, 'package.json'));
  for (const file of files) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await copyFile(join(REPO_ROOT, file), join(root, file));
  }
  return { root, packages };
}

async function addChangeset(root: string, name: string, bumps: Record<string, string>, summary: string) {
  const header = Object.entries(bumps).map(([pkg, bump]) => `"${pkg}": ${bump}`);
  await writeFile(join(root, '.changeset', `${name}.md`), ['---', ...header, '---', '', summary, ''].join('\n'));
}

async function changesetVersion(root: string, env: NodeJS.ProcessEnv = isolatedEnv()): Promise<void> {
  await run(process.execPath, [changesetBin, 'version'], { cwd: root, env });
}

async function manifestAfter(root: string, pkg: WorkspacePackage): Promise<PackageManifest> {
  return JSON.parse(await readFile(join(root, pkg.dir, 'package.json'), 'utf8')) as PackageManifest;
}

function byName(packages: WorkspacePackage[], name: string): WorkspacePackage {
  const found = packages.find((pkg) => pkg.manifest.name === name);
  if (!found) throw new Error(`${name} is not a workspace package`);
  return found;
}

/** `0.1.0` → `0.2.0` (minor) or `0.1.1` (patch). */
function bumped(version: string | undefined, bump: 'minor' | 'patch'): string {
  const [major, minor, patch] = (version ?? '').split('.').map(Number) as [number, number, number];
  return bump === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

describe('changeset version with the repository config', () => {
  it('bumps store (and patches its public dependents) for a minor store changeset, writes its CHANGELOG.md and consumes the changeset', async () => {
    const { root, packages } = await replicateWorkspace();
    const store = byName(packages, '@agent-apis/store');
    // Public packages built on the store client (the tool server) get the patch `updateInternalDependencies` gives.
    const dependents = packages.filter(
      (pkg) => !pkg.manifest.private && pkg.manifest.dependencies?.['@agent-apis/store'] !== undefined,
    );
    await addChangeset(root, 'store-feature', { '@agent-apis/store': 'minor' }, 'List products by category.');

    await changesetVersion(root);

    expect((await manifestAfter(root, store)).version).toBe(bumped(store.manifest.version, 'minor'));
    const changelog = await readFile(join(root, store.dir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`## ${bumped(store.manifest.version, 'minor')}`);
    expect(changelog).toMatch(/### Minor Changes\s+- List products by category\./);
    for (const pkg of dependents) {
      expect((await manifestAfter(root, pkg)).version, pkg.dir).toBe(bumped(pkg.manifest.version, 'patch'));
    }
    for (const pkg of packages.filter((other) => other !== store && !dependents.includes(other))) {
      expect(await manifestAfter(root, pkg), pkg.dir).toEqual(pkg.manifest);
      expect(existsSync(join(root, pkg.dir, 'CHANGELOG.md')), pkg.dir).toBe(false);
    }
    expect(await readdir(join(root, '.changeset'))).toEqual(['config.json']);
  });

  it('patches every public package that depends on core when core changes, and no private package', async () => {
    const { root, packages } = await replicateWorkspace();
    const core = byName(packages, '@agent-apis/core');
    const dependents = packages.filter(
      (pkg) => !pkg.manifest.private && pkg.manifest.dependencies?.['@agent-apis/core'] !== undefined,
    );
    expect(dependents.map((pkg) => pkg.manifest.name)).toEqual(
      expect.arrayContaining(['@agent-apis/directory', '@agent-apis/store', '@agent-apis/trust']),
    );
    await addChangeset(root, 'core-fix', { '@agent-apis/core': 'patch' }, 'Retry on 503 as well.');

    await changesetVersion(root);

    expect((await manifestAfter(root, core)).version).toBe(bumped(core.manifest.version, 'patch'));
    for (const pkg of dependents) {
      const after = await manifestAfter(root, pkg);
      expect(after.version, pkg.dir).toBe(bumped(pkg.manifest.version, 'patch'));
      // The range stays `workspace:*`; `pnpm pack`/`publish` turns it into the new core version.
      expect(after.dependencies?.['@agent-apis/core'], pkg.dir).toBe(pkg.manifest.dependencies?.['@agent-apis/core']);
      const changelog = await readFile(join(root, pkg.dir, 'CHANGELOG.md'), 'utf8');
      expect(changelog, pkg.dir).toContain(`@agent-apis/core@${bumped(core.manifest.version, 'patch')}`);
    }
    for (const pkg of packages.filter((other) => other.manifest.private)) {
      expect(await manifestAfter(root, pkg), pkg.dir).toEqual(pkg.manifest);
    }
  });
});

const CONSUMER_SOURCES = join(import.meta.dirname, '..', '..', 'release-consumer');
/** The agent program of the README's "Install" section (`ecosystem/agent/`). */
const AGENT_SOURCES = join(import.meta.dirname, '..', '..', 'agent');
/** What a consumer installs next to the packages: the TypeScript and test stack, at the workspace's pins. */
const CONSUMER_TOOLS = ['typescript', 'zod', 'msw', '@faker-js/faker', 'vitest', '@types/node'];
const SERVICES = ['directory', 'trust', 'store'] as const;
const FILE_TIMEOUT_MS = 600_000;

/**
 * The installed folders (in the workspace's node_modules) of the consumer's tools at their catalog versions and
 * of the third-party dependencies of the public packages: what the registry must serve for the install.
 */
async function thirdPartyRoots(): Promise<string[]> {
  const packages = await workspacePackages();
  const roots: string[] = [];
  for (const specifier of await catalogSpecifiers(CONSUMER_TOOLS)) {
    const at = specifier.lastIndexOf('@');
    const [name, version] = [specifier.slice(0, at), specifier.slice(at + 1)];
    const dirs = packages.map((pkg) => join(REPO_ROOT, pkg.dir, 'node_modules', name));
    const found = [];
    for (const dir of dirs) {
      const manifest = await readFile(join(dir, 'package.json'), 'utf8').then(JSON.parse, () => undefined);
      if (manifest?.version === version) found.push(dir);
    }
    if (!found[0]) throw new Error(`${specifier} is installed in no workspace package`);
    roots.push(found[0]);
  }
  for (const pkg of await publicPackages()) {
    for (const name of Object.keys(pkg.manifest.dependencies ?? {})) {
      if (!name.startsWith('@agent-apis/')) roots.push(join(REPO_ROOT, pkg.dir, 'node_modules', name));
    }
  }
  return roots;
}

/**
 * A copy of the repository in `dir`: its tracked files as they are in the work tree, an offline install from
 * the pnpm store (the lockfile must hold), the build outputs of the public packages (the published `dist` and
 * `src/gen` folders, which git ignores), and a git repository for the tags `changeset publish` writes.
 */
async function copyRepository(dir: string): Promise<void> {
  const tracked = (await run('git', ['ls-files', '-z'], { cwd: REPO_ROOT, env: process.env }))
    .split('\0')
    .filter((file) => file && existsSync(join(REPO_ROOT, file)));
  for (const file of tracked) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await copyFile(join(REPO_ROOT, file), join(dir, file));
  }
  for (const pkg of await publicPackages()) {
    for (const output of ['dist', 'src/gen']) {
      const from = join(REPO_ROOT, pkg.dir, output);
      if (existsSync(from)) await cp(from, join(dir, pkg.dir, output), { recursive: true });
    }
  }
  await run('pnpm', ['install', '--offline', '--frozen-lockfile'], { cwd: dir, env: process.env });
  await run('git', ['init', '-q'], { cwd: dir });
  // An identity of the copy's own: `changeset publish` tags (annotated) and a CI machine may have no global one.
  await run('git', ['config', 'user.name', 'release-test'], { cwd: dir });
  await run('git', ['config', 'user.email', 'release-test@localhost'], { cwd: dir });
  await run('git', ['add', '-A'], { cwd: dir });
  await run('git', ['commit', '-qm', 'copy'], { cwd: dir });
}

/**
 * The environment of every command that talks to the registry: the registry named by its `.npmrc` (here also by
 * variable, for npm), a user config of its own, and every HTTP(S) proxy pointing at the outbound trap, loopback
 * excepted.
 */
describe('a release published to a local registry and installed by version', { timeout: FILE_TIMEOUT_MS }, () => {
  let work: string;
  let registry: Registry;
  let trap: Awaited<ReturnType<typeof startOutboundTrap>>;
  let env: NodeJS.ProcessEnv;
  let repo: string;
  let project: string;
  let seeded: string[];
  let versions: Map<string, string>;
  let publishOutput: string;
  const mocks = new Map<string, PrismServer>();

  async function startMocks(): Promise<void> {
    const logDir = join(import.meta.dirname, '..', '..', 'reports', 'consumer');
    await Promise.all(
      SERVICES.map(async (service) => {
        const spec = finalSpecFile(service);
        mocks.set(service, await startPrism({ name: `consumer-${service}`, spec, logDir, readyTimeoutMs: 90_000 }));
      }),
    );
  }

  async function publishRelease(): Promise<void> {
    repo = join(work, 'repo');
    await copyRepository(repo);
    await addChangeset(repo, 'store-feature', { '@agent-apis/store': 'minor' }, 'List products by category.');
    await changesetVersion(repo, env);
    versions = new Map();
    for (const pkg of await publicPackages(repo)) versions.set(pkg.manifest.name, pkg.manifest.version ?? '');
    await writeFile(join(repo, '.npmrc'), registry.npmrc());
    publishOutput = await run('pnpm', ['run', 'publish-packages'], { cwd: repo, env });
  }

  async function installConsumer(): Promise<void> {
    project = join(work, 'consumer');
    await cp(CONSUMER_SOURCES, project, { recursive: true });
    await writeFile(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'agent-apis-consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    await writeFile(join(project, '.npmrc'), `registry=${registry.url}\n`);
    const packages = [...versions].map(([name, version]) => `${name}@${version}`);
    const tools = await catalogSpecifiers(CONSUMER_TOOLS);
    await run('npm', ['install', '--no-audit', '--no-fund', ...packages, ...tools], {
      cwd: project,
      env: { ...env, npm_config_cache: join(work, 'npm-cache') },
      timeoutMs: 180_000,
    });
  }

  beforeAll(async () => {
    const started = Date.now();
    work = await mkdtemp(join(tmpdir(), 'agent-apis-release-'));
    const userConfig = join(work, 'user.npmrc');
    await writeFile(userConfig, '');
    [registry, trap] = await Promise.all([startRegistry(join(work, 'registry')), startOutboundTrap()]);
    env = loopbackOnlyEnv(registry, trap.url, userConfig);
    await Promise.all([
      startMocks(),
      (async () => {
        seeded = await seedFromWorkspace(registry, await thirdPartyRoots());
        await publishRelease();
        await installConsumer();
      })(),
    ]);
    console.info(`release published and installed in ${Math.round((Date.now() - started) / 1000)} s: ${work}`);
  }, FILE_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([...mocks.values()].map((mock) => mock.stop()));
    await registry?.stop();
    await trap?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /**
   * Runs a file of an installed package's bin (or the consumer's own file) with the Node running this test. The
   * limit is a backstop against a hang, not a speed bound: a type check with skipLibCheck off took over 120 s on a
   * loaded 2-core machine.
   */
  function node(args: string[], extra: Record<string, string> = {}): Promise<string> {
    return run(process.execPath, args, { cwd: project, env: { ...env, ...extra }, timeoutMs: 480_000 });
  }

  function mockUrl(service: (typeof SERVICES)[number]): string {
    const mock = mocks.get(service);
    if (!mock) throw new Error(`no Prism mock for ${service}`);
    return mock.url;
  }

  it('publishes the versioned packages to the registry, with no workspace or catalog range left', async () => {
    const store = versions.get('@agent-apis/store');
    const [before] = (await publicPackages()).filter((pkg) => pkg.manifest.name === '@agent-apis/store');
    expect(store).toBe(bumped(before?.manifest.version, 'minor'));
    for (const [name, version] of versions) {
      expect(publishOutput, name).toContain(`${name}@${version}`);
      const response = await fetch(new URL(name.replace('/', '%2f'), registry.url));
      const packument = (await response.json()) as {
        'dist-tags': Record<string, string>;
        versions: Record<string, PackageManifest>;
      };
      expect(Object.keys(packument.versions), name).toEqual([version]);
      expect(packument['dist-tags'].latest, name).toBe(version);
      const manifest = packument.versions[version] as PackageManifest;
      const ranges = Object.values({ ...manifest.dependencies, ...manifest.peerDependencies });
      expect(
        ranges.filter((range) => /^(workspace|catalog):/.test(range)),
        name,
      ).toEqual([]);
      if (manifest.dependencies?.['@agent-apis/core']) {
        expect(manifest.dependencies['@agent-apis/core'], name).toBe(versions.get('@agent-apis/core'));
      }
    }
    const tags = await run('git', ['tag', '--list'], { cwd: repo });
    expect(tags.split('\n').filter(Boolean).sort()).toEqual([...versions].map(([n, v]) => `${n}@${v}`).sort());
  });

  it('refuses to publish the same version twice, and says so', async () => {
    const again = await run('pnpm', ['run', 'publish-packages'], { cwd: repo, env, withStderr: true });
    expect(again).toContain('No unpublished projects to publish');
    const storeDir = join(repo, 'packages', 'store');
    const refused = await run('pnpm', ['publish', '--no-git-checks'], { cwd: storeDir, env }).then(
      () => 'published',
      (error: Error) => error.message,
    );
    expect(refused).not.toBe('published');
    expect(refused).toMatch(/409|already (present|published|exists)|cannot publish over/i);
    const packument = (await (await fetch(new URL('@agent-apis%2fstore', registry.url))).json()) as {
      versions: Record<string, unknown>;
    };
    expect(Object.keys(packument.versions)).toEqual([versions.get('@agent-apis/store')]);
  });

  it('installs every package by name and version from the registry, and nothing from anywhere else', async () => {
    const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    for (const [name, version] of versions) {
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
    }
    const installed = Object.entries(lock.packages).filter(([path]) => path !== '');
    expect(installed.length).toBeGreaterThan(versions.size + CONSUMER_TOOLS.length);
    for (const [path, entry] of installed) {
      expect(entry.resolved, path).toMatch(new RegExp(`^${registry.url.replace(/[.]/g, '\\.')}`));
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      if (!name.startsWith('@agent-apis/')) expect(seeded, path).toContain(`${name}@${entry.version}`);
    }
    expect(trap.connections()).toBe(0);
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

  /**
   * A new project with the `.npmrc` the README's "Install" section gives: the scope mapped to the internal
   * registry (here the loopback one), and the default registry for everything else (here the same one, as
   * nothing may leave loopback).
   */
  async function projectInstalling(name: string, specifiers: string[]): Promise<string> {
    const dir = join(work, name);
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: `agent-apis-${name}`, private: true, type: 'module' }, null, 2)}\n`,
    );
    await writeFile(join(dir, '.npmrc'), `@agent-apis:registry=${registry.url}\nregistry=${registry.url}\n`);
    await run('npm', ['install', '--no-audit', '--no-fund', ...specifiers], {
      cwd: dir,
      env: { ...env, npm_config_cache: join(work, 'npm-cache') },
      timeoutMs: 180_000,
    });
    return dir;
  }

  it('installs each package alone by name (no version, no tarball), core coming along', async () => {
    const names = [...versions.keys()];
    const projects = await Promise.all(
      names.map((name) => projectInstalling(`alone-${name.replace('@agent-apis/', '')}`, [name])),
    );
    for (const [i, name] of names.entries()) {
      const dir = projects[i] as string;
      const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version?: string; resolved?: string }>;
      };
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(versions.get(name));
      expect(lock.packages['node_modules/@agent-apis/core']?.version, name).toBe(versions.get('@agent-apis/core'));
      const loaded = await run(
        process.execPath,
        ['--input-type=module', '-e', `const m = await import('${name}'); console.log(Object.keys(m).length);`],
        { cwd: dir, env },
      );
      expect(Number(loaded.trim()), name).toBeGreaterThan(0);
    }
    expect(trap.connections()).toBe(0);
  });

  let agentProject: Promise<string> | undefined;
  /** The agent program's project: the four clients by name, with TypeScript and Node's types at the workspace pins. */
  function installAgent(): Promise<string> {
    agentProject ??= (async () => {
      const clients = [...versions.keys()].filter((name) => name !== '@agent-apis/core');
      const dir = await projectInstalling('agent', [
        ...clients,
        ...(await catalogSpecifiers(['typescript', '@types/node'])),
      ]);
      await cp(AGENT_SOURCES, dir, { recursive: true });
      return dir;
    })();
    return agentProject;
  }

  it('type-checks the agent program under strict, lib ES2023, skipLibCheck false, exactOptionalPropertyTypes', async () => {
    const dir = await installAgent();
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { cwd: dir, env });
  });

  it('runs the agent program against the mocks and a local store tool server', async () => {
    const dir = await installAgent();
    // The store's credential pair serves its REST API and its tool server alike.
    const credentials = { login: 'agent', authToken: 'agent-token' };
    const tools = await startToolServer({
      tools: (await readSyncedToolList('store')).list.tools,
      credentials: { 'X-LOGIN-KEY': credentials.login, 'X-AUTH-TOKEN': credentials.authToken },
    });
    try {
      const output = await run(process.execPath, ['agent.ts'], {
        cwd: dir,
        env: {
          ...env,
          DIRECTORY_BASE_URL: mockUrl('directory'),
          TRUST_BASE_URL: mockUrl('trust'),
          ENTROPY0_API_KEY: 'sk_ent0_agent',
          STORE_BASE_URL: mockUrl('store'),
          STORE_LOGIN: credentials.login,
          STORE_AUTH_TOKEN: credentials.authToken,
          STORE_MCP_URL: tools.url,
        },
      });
      const summary = JSON.parse(output.trim().split('\n').at(-1) ?? '') as {
        cleared: string[];
        products: number;
        created: unknown;
        toolBlocks: number;
      };
      const search = (await successExample('directory', 'search')) as { results: { name: string }[] };
      expect(summary.cleared).toEqual(search.results.map((hit) => `${hit.name}: proceed`));
      expect(summary.products).toBeGreaterThan(0);
      expect(Number.isInteger(summary.created)).toBe(true);
      expect(summary.toolBlocks).toBeGreaterThanOrEqual(2);
      expect(tools.calls.map((call) => call.tool)).toEqual(['get_store_info', 'list_products']);
    } finally {
      await tools.close();
    }
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

interface JsonMedia {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
type Responses = Record<string, { content?: Record<string, JsonMedia> }>;

/** The example a final spec gives for an operation's first 2xx response (the one Prism serves first). */
async function successExample(service: (typeof SERVICES)[number], operationId: string): Promise<unknown> {
  const document = await readFinalSpec<OpenApiDocument>(service);
  const found = listOperations(document).find((ref) => ref.operation.operationId === operationId);
  const responses = (found?.operation.responses ?? {}) as Responses;
  const success = Object.keys(responses).find((status) => /^2\d\d$/.test(status));
  const media = success === undefined ? undefined : responses[success]?.content?.['application/json'];
  if (!media) throw new Error(`${service}: ${operationId} has no JSON success response`);
  return media.example ?? Object.values(media.examples ?? {})[0]?.value;
}
