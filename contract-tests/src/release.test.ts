/**
 * `changeset version` on a replica of this workspace (root manifest, pnpm-workspace.yaml, .changeset/config.json
 * and every package's package.json, copied into a temp folder), so the real repository is never touched.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isolatedEnv,
  type PackageManifest,
  REPO_ROOT,
  run,
  type WorkspacePackage,
  workspacePackages,
} from './workspace.ts';

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

async function changesetVersion(root: string): Promise<void> {
  await run(process.execPath, [changesetBin, 'version'], { cwd: root, env: isolatedEnv() });
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
  it('bumps store alone for a minor store changeset, writes its CHANGELOG.md and consumes the changeset', async () => {
    const { root, packages } = await replicateWorkspace();
    const store = byName(packages, '@agent-apis/store');
    await addChangeset(root, 'store-feature', { '@agent-apis/store': 'minor' }, 'List products by category.');

    await changesetVersion(root);

    expect((await manifestAfter(root, store)).version).toBe(bumped(store.manifest.version, 'minor'));
    const changelog = await readFile(join(root, store.dir, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`## ${bumped(store.manifest.version, 'minor')}`);
    expect(changelog).toMatch(/### Minor Changes\s+- List products by category\./);
    for (const pkg of packages.filter((other) => other !== store)) {
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
