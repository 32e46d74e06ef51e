/**
 * A throwaway consumer project outside the workspace, as a user gets one: the published packages packed with
 * `pnpm pack` and installed from those tarballs by npm. Their third-party dependencies come from a private
 * registry on loopback seeded from the workspace's own node_modules (`@agent-apis/test-servers/registry`), and
 * every proxy of the install points at a trap that must see no connection: nothing is downloaded.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Registry, seedFromWorkspace, startOutboundTrap, startRegistry } from '@agent-apis/test-servers/registry';
import { catalogSpecifiers, isolatedEnv, publicPackages, REPO_ROOT, run } from '@agent-apis/test-utils/workspace';

/** The optional peers a consumer of the `./msw` entry points installs beside the packages, at the workspace's pins. */
const MSW_PEERS = ['msw', '@faker-js/faker'];

export const CONSUMER_SOURCES = join(import.meta.dirname, '..', 'consumer');

export interface ConsumerProject {
  dir: string;
  /** `name` → the tarball it was installed from. */
  tarballs: Map<string, string>;
  /** `name` → the import specifiers of its entry points (`exports` less `./package.json`). */
  entryPoints: Map<string, string[]>;
  /** Connections the outbound trap saw during the install (must be 0). */
  outbound: number;
  stop(): Promise<void>;
}

/** Packs every public package into `dir` with `pnpm pack` (which turns `workspace:` ranges into versions). */
export async function packPublicPackages(dir: string): Promise<Map<string, string>> {
  await mkdir(dir, { recursive: true });
  const packages = await publicPackages();
  const tarballs = new Map<string, string>();
  await Promise.all(
    packages.map(async (pkg) => {
      const before = new Set(await readdir(dir));
      await run('pnpm', ['pack', '--pack-destination', dir], { cwd: join(REPO_ROOT, pkg.dir), env: process.env });
      const stem = pkg.manifest.name.replace('@', '').replace('/', '-');
      const file = (await readdir(dir)).find((name) => !before.has(name) && name.startsWith(`${stem}-`));
      if (!file) throw new Error(`pnpm pack wrote no tarball for ${pkg.manifest.name} into ${dir}`);
      tarballs.set(pkg.manifest.name, join(dir, file));
    }),
  );
  return tarballs;
}

/** The folders (in the workspace's node_modules) of the public packages' third-party dependencies and peers. */
async function thirdPartyRoots(): Promise<string[]> {
  const roots: string[] = [];
  for (const pkg of await publicPackages()) {
    const { dependencies = {}, peerDependencies = {} } = pkg.manifest;
    for (const name of Object.keys({ ...dependencies, ...peerDependencies })) {
      if (!name.startsWith('@agent-apis/')) roots.push(join(REPO_ROOT, pkg.dir, 'node_modules', name));
    }
  }
  return roots;
}

/** What a consumer project installs beside the packages and the `./msw` peers. */
export interface ConsumerExtras {
  /** Packages of the workspace catalog, installed at the workspace's pins (`redis`, `@types/node`). */
  packages?: readonly string[];
  /** The folders (in the workspace's node_modules) those packages are seeded into the registry from. */
  roots?: readonly string[];
  /** The folder copied in as the project's sources (default: `consumer/`). */
  sources?: string;
}

/** Packs, starts the registry and installs the tarballs into a new project in `work/consumer`. */
export async function installConsumer(work: string, extras: ConsumerExtras = {}): Promise<ConsumerProject> {
  const [tarballs, registry, trap] = await Promise.all([
    packPublicPackages(join(work, 'tarballs')),
    startRegistry(join(work, 'registry')),
    startOutboundTrap(),
  ]);
  const stop = async (): Promise<void> => {
    await Promise.all([registry.stop(), trap.stop()]);
  };
  try {
    await seedFromWorkspace(registry, [...(await thirdPartyRoots()), ...(extras.roots ?? [])]);
    const dir = join(work, 'consumer');
    await cp(extras.sources ?? CONSUMER_SOURCES, dir, { recursive: true });
    await writeFile(join(work, 'user.npmrc'), '');
    await writeFile(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'agent-apis-ecosystem-consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    await writeFile(join(dir, '.npmrc'), `registry=${registry.url}\n`);
    const peers = await catalogSpecifiers([...MSW_PEERS, ...(extras.packages ?? [])]);
    await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs.values(), ...peers], {
      cwd: dir,
      env: {
        ...loopbackOnlyEnv(registry, trap.url, join(work, 'user.npmrc')),
        npm_config_cache: join(work, 'npm-cache'),
      },
      timeoutMs: 180_000,
    });
    const entryPoints = new Map<string, string[]>();
    for (const name of tarballs.keys()) {
      const manifest = JSON.parse(await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as {
        exports: Record<string, unknown>;
      };
      const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json');
      entryPoints.set(
        name,
        subpaths.map((subpath) => (subpath === '.' ? name : `${name}${subpath.slice(1)}`)),
      );
    }
    return { dir, tarballs, entryPoints, outbound: trap.connections(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The environment of an npm command that may reach `registry` only: every proxy points at the outbound trap (loopback
 * excepted), the user config is `userConfig`, nothing of the workspace's environment leaks in.
 */
export function loopbackOnlyEnv(registry: Registry, trapUrl: string, userConfig: string): NodeJS.ProcessEnv {
  const proxies = [
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'http_proxy',
    'https_proxy',
    'npm_config_proxy',
    'npm_config_https_proxy',
  ];
  const noProxy = '127.0.0.1,localhost';
  return isolatedEnv({
    ...Object.fromEntries(proxies.map((name) => [name, trapUrl])),
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    npm_config_noproxy: noProxy,
    npm_config_registry: registry.url,
    npm_config_userconfig: userConfig,
  });
}
