/**
 * The repository as the release tests see it: its workspace packages, the pinned catalog versions, and a way to
 * run a command outside the workspace's environment (no pnpm/npm/vitest variables leaking into it).
 */
import { execFile } from 'node:child_process';
import { glob, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

export interface PackageManifest {
  name: string;
  version?: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
}

export interface WorkspacePackage {
  /** Folder relative to the repository root, e.g. `packages/store`. */
  dir: string;
  manifest: PackageManifest;
}

interface WorkspaceConfig {
  packages: string[];
  catalog?: Record<string, string>;
}

async function workspaceConfig(root: string): Promise<WorkspaceConfig> {
  return parseYaml(await readFile(join(root, 'pnpm-workspace.yaml'), 'utf8')) as WorkspaceConfig;
}

/** Every package that `pnpm-workspace.yaml` lists, sorted by folder. */
export async function workspacePackages(root = REPO_ROOT): Promise<WorkspacePackage[]> {
  const { packages: patterns } = await workspaceConfig(root);
  const dirs = new Set<string>();
  for (const pattern of patterns) {
    for await (const file of glob(`${pattern}/package.json`, { cwd: root })) dirs.add(dirname(file));
  }
  return Promise.all(
    [...dirs].sort().map(async (dir) => ({
      dir,
      manifest: JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8')) as PackageManifest,
    })),
  );
}

/** The workspace packages that get published (no `"private": true`). */
export async function publicPackages(root = REPO_ROOT): Promise<WorkspacePackage[]> {
  return (await workspacePackages(root)).filter((pkg) => pkg.manifest.private !== true);
}

/** `name@version` for each name, with the version pinned in the workspace catalog. */
export async function catalogSpecifiers(names: readonly string[], root = REPO_ROOT): Promise<string[]> {
  const { catalog = {} } = await workspaceConfig(root);
  return names.map((name) => {
    const version = catalog[name];
    if (!version) throw new Error(`${name} is not in the catalog of pnpm-workspace.yaml`);
    return `${name}@${version}`;
  });
}

/** Variables a command outside the workspace may see: the basics, proxies, certificates and npm's own settings. */
const PASSED_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'CI',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'npm_config_cache',
  'npm_config_registry',
  'npm_config_userconfig',
  'npm_config_globalconfig',
  'npm_config_cafile',
];

/**
 * An environment without the variables pnpm, npm and vitest set for the current process (a leaked
 * `npm_config_local_prefix` would make npm install into the workspace) and without any service credentials,
 * plus `extra`.
 */
export function isolatedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', DO_NOT_TRACK: '1' };
  for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Resolve to stderr after stdout, for commands that report on stderr. */
  withStderr?: boolean;
}

/** Runs a command and resolves to its stdout (and stderr, if asked); a failure rejects with the command line and all its output. */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<string> {
  const timeout = options.timeoutMs ?? 120_000;
  const env = options.env ?? isolatedEnv();
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env, timeout, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (!error) return resolve(options.withStderr ? `${stdout}${stderr}` : stdout);
      // error.message already names the command line and carries stderr.
      const reason = error.killed ? `killed after ${timeout} ms` : `exit code ${error.code}`;
      reject(new Error(`${error.message}\n(in ${options.cwd}, ${reason})\n${stdout}`));
    });
  });
}
