/**
 * A private npm registry on loopback for the release test: Verdaccio as a real process, with its own storage,
 * config and user, and no uplink (it can only serve what was published to it). `seedFromWorkspace` publishes
 * third-party packages into it from the workspace's own node_modules, so a consumer project installs its whole
 * tree from loopback and nothing reaches an outside registry.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { freePort, listenOnLoopback, startServerProcess } from '@agent-apis/test-utils/processes';
import type { PackageManifest } from '@agent-apis/test-utils/workspace';
import { create as createTar } from 'tar';

export interface Registry {
  /** `http://127.0.0.1:<port>/`, with the trailing slash npm expects. */
  url: string;
  /** A bearer token of the registry's one user, allowed to publish. */
  token: string;
  /** A folder for the registry's temporary files. */
  scratch: string;
  /** Lines for an `.npmrc` that installs and publishes through this registry only. */
  npmrc(): string;
  log(): Promise<string>;
  stop(): Promise<void>;
}

const verdaccioBin = join(
  dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')),
  'bin',
  'verdaccio',
);

/** Verdaccio's config: local storage and htpasswd users in `dir`, no uplinks, anonymous reads, authenticated publishes. */
function verdaccioConfig(dir: string): string {
  return [
    `storage: ${JSON.stringify(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
    '    max_users: 10',
    // JWT tokens are checked by signature alone (the legacy ones cost a bcrypt round on every request).
    'security:',
    '  api:',
    '    jwt:',
    '      sign: { expiresIn: 1h }',
    'uplinks: {}',
    'packages:',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    unpublish: $authenticated',
    'web:',
    '  enable: false',
    'middlewares:',
    '  audit:',
    '    enabled: false',
    'max_body_size: 200mb',
    'log: { type: stdout, format: json, level: http }',
    '',
  ].join('\n');
}

/** Starts Verdaccio with storage under `dir` on a free loopback port, and creates the user that publishes. */
export async function startRegistry(dir: string): Promise<Registry> {
  await mkdir(join(dir, 'storage'), { recursive: true });
  await mkdir(join(dir, 'scratch'));
  const configFile = join(dir, 'config.yaml');
  await writeFile(configFile, verdaccioConfig(dir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const { log, stop } = await startServerProcess({
    name: `Verdaccio on ${url}`,
    args: [verdaccioBin, '--config', configFile, '--listen', `127.0.0.1:${port}`],
    env: { PATH: process.env.PATH, HOME: dir, NODE_ENV: 'production', DO_NOT_TRACK: '1' },
    logFile: join(dir, 'verdaccio.log'),
    ready: () =>
      fetch(new URL('-/ping', url)).then(
        (response) => response.ok,
        () => false,
      ),
  });

  const user = 'release-test';
  const response = await fetch(new URL(`-/user/org.couchdb.user:${user}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: user, password: `pw-${port}`, type: 'user', roles: [] }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!response.ok || !token) {
    await stop();
    throw new Error(`Verdaccio refused to add a user (HTTP ${response.status})`);
  }
  const hostPath = url.replace(/^http:/, '');
  return {
    url,
    token,
    scratch: join(dir, 'scratch'),
    npmrc: () => `registry=${url}\n${hostPath}:_authToken=${token}\n`,
    log,
    stop,
  };
}

/** A package found in the workspace's node_modules: its real folder and its manifest. */
interface InstalledPackage {
  dir: string;
  manifest: PackageManifest & { optionalDependencies?: Record<string, string> };
}

/** The node_modules folder a pnpm-installed package sits in: its dependencies are its siblings there. */
function siblingsFolder(pkg: InstalledPackage): string {
  return pkg.manifest.name.split('/').reduce((dir) => dirname(dir), pkg.dir);
}

async function readInstalled(linkOrDir: string): Promise<InstalledPackage | undefined> {
  if (!existsSync(join(linkOrDir, 'package.json'))) return undefined;
  const dir = await realpath(linkOrDir);
  return {
    dir,
    manifest: JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as InstalledPackage['manifest'],
  };
}

/**
 * Every package reachable from `roots` (installed package folders) through dependencies, optional dependencies
 * and peer dependencies that are installed. A regular dependency that is not installed is an error; optional
 * and peer dependencies that pnpm did not install (other platforms, unused peers) are left out.
 */
export async function installedClosure(roots: readonly string[]): Promise<InstalledPackage[]> {
  const found = new Map<string, InstalledPackage>();
  const queue = [...roots];
  while (queue.length > 0) {
    const pkg = await readInstalled(queue.shift() as string);
    if (!pkg || found.has(pkg.dir)) continue;
    found.set(pkg.dir, pkg);
    const { dependencies = {}, optionalDependencies = {}, peerDependencies = {} } = pkg.manifest;
    for (const name of new Set([
      ...Object.keys(dependencies),
      ...Object.keys(optionalDependencies),
      ...Object.keys(peerDependencies),
    ])) {
      const link = join(siblingsFolder(pkg), name);
      if (existsSync(link)) queue.push(link);
      else if (name in dependencies && !(name in optionalDependencies)) {
        throw new Error(`${pkg.manifest.name}@${pkg.manifest.version} needs ${name}, which is not installed beside it`);
      }
    }
  }
  return [...found.values()];
}

/**
 * pnpm hard-links identical files to one store entry, and node-tar would write the second one as a link entry,
 * which npm does not extract. A link cache that never remembers makes every file a whole entry.
 */
const noHardLinks = { get: () => undefined, set: () => noHardLinks } as unknown as Map<`${number}:${number}`, string>;

/** `pkg` as a gzipped npm tarball (files under `package/`), without any node_modules folder of its own. */
async function packFolder(pkg: InstalledPackage, scratch: string): Promise<Buffer> {
  const entries = (await readdir(pkg.dir)).filter((entry) => entry !== 'node_modules');
  const file = join(scratch, `${pkg.manifest.name.replace('/', '+')}@${pkg.manifest.version}.tgz`);
  createTar(
    { cwd: pkg.dir, gzip: { level: 1 }, portable: true, prefix: 'package', file, sync: true, linkCache: noHardLinks },
    entries,
  );
  const tarball = await readFile(file);
  await rm(file);
  return tarball;
}

/** Publishes one installed package to the registry through npm's publish request (`PUT /<name>`). */
async function publishInstalled(
  registry: Registry,
  pkg: InstalledPackage,
  published: Set<string>,
  scratch: string,
): Promise<void> {
  const { name, version } = pkg.manifest;
  const tarball = await packFolder(pkg, scratch);
  const file = `${basename(name)}-${version}.tgz`;
  // Ranges to packages that are not in the registry (platform builds for other machines, peers nobody
  // installed) are dropped from the published metadata, so npm does not ask for them.
  const keep = (ranges: Record<string, string> | undefined) =>
    ranges && Object.fromEntries(Object.entries(ranges).filter(([dep]) => published.has(dep)));
  const manifest = {
    ...pkg.manifest,
    optionalDependencies: keep(pkg.manifest.optionalDependencies),
    peerDependencies: keep(pkg.manifest.peerDependencies),
    _id: `${name}@${version}`,
    dist: {
      tarball: new URL(`${name}/-/${file}`, registry.url).href,
      shasum: createHash('sha1').update(tarball).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    },
  };
  const body = JSON.stringify({
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: { [version as string]: manifest },
    _attachments: {
      [file]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length },
    },
  });
  const put = () =>
    fetch(new URL(name.replace('/', '%2f'), registry.url), {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${registry.token}` },
      body,
    });
  // On a loaded machine the loopback registry sometimes drops the connection mid-upload (EPIPE, reset): the PUT
  // is sent again, up to three times; a 409 then means the earlier attempt did land.
  let response: Response | undefined;
  for (let attempt = 1; !response; attempt += 1) {
    try {
      response = await put();
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
  if (response.status === 409 && (await registryHas(registry, name, version as string))) return;
  if (!response.ok)
    throw new Error(
      `publishing ${name}@${version} to ${registry.url}: HTTP ${response.status} ${await response.text()}`,
    );
}

/** Whether the registry already holds `name@version` (an upload that landed though its connection dropped). */
async function registryHas(registry: Registry, name: string, version: string): Promise<boolean> {
  const response = await fetch(new URL(name.replace('/', '%2f'), registry.url), {
    headers: { authorization: `Bearer ${registry.token}` },
  });
  if (!response.ok) return false;
  const document = (await response.json()) as { versions?: Record<string, unknown> };
  return document.versions?.[version] !== undefined;
}

/**
 * Publishes every installed package reachable from `roots` to the registry, from the files pnpm installed
 * (so nothing is downloaded). Versions of one package go one after the other; packages run four at a time.
 * Resolves to `name@version` of each package published.
 */
export async function seedFromWorkspace(registry: Registry, roots: readonly string[]): Promise<string[]> {
  // The same version can be installed twice (once per set of peers); it is published once.
  const closure = [
    ...new Map(
      (await installedClosure(roots)).map((pkg) => [`${pkg.manifest.name}@${pkg.manifest.version}`, pkg]),
    ).values(),
  ];
  const names = new Set(closure.map((pkg) => pkg.manifest.name));
  const byName = new Map<string, InstalledPackage[]>();
  for (const pkg of closure) byName.set(pkg.manifest.name, [...(byName.get(pkg.manifest.name) ?? []), pkg]);
  const queue = [...byName.values()];
  const worker = async () => {
    for (let versions = queue.shift(); versions; versions = queue.shift()) {
      for (const pkg of versions) await publishInstalled(registry, pkg, names, registry.scratch);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return closure.map((pkg) => `${pkg.manifest.name}@${pkg.manifest.version}`).sort();
}

/**
 * A loopback port that accepts connections and closes them at once, counting each: set as the HTTP(S) proxy
 * of a command, every request that would leave loopback lands here and fails.
 */
export async function startOutboundTrap(): Promise<{ url: string; connections(): number; stop(): Promise<void> }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  const { origin, close } = await listenOnLoopback(server);
  return { url: origin, connections: () => count, stop: close };
}
