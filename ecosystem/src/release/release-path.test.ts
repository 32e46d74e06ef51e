/*
 * The release path before anything is published: the workflows sync specs offline from the mirror, grant each job
 * only what it needs and keep no token on disk, and every package build starts from an empty `dist`, so a stray
 * file there is never packed.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { publicPackages, REPO_ROOT } from '@agent-apis/test-utils/workspace';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

const run = promisify(execFile);

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string> | string;
  env?: Record<string, unknown>;
  defaults?: { run?: { 'working-directory'?: string } };
  steps: Step[];
}
interface Workflow {
  permissions?: Record<string, string> | string;
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

async function workflow(name: string): Promise<Workflow> {
  return parseYaml(await readFile(join(REPO_ROOT, '.github', 'workflows', `${name}.yml`), 'utf8')) as Workflow;
}

const WORKFLOWS = ['ci', 'release', 'nightly'] as const;
const isCheckout = (step: Step) => step.uses?.startsWith('actions/checkout@') ?? false;
const isInstall = (step: Step) => /\bpnpm@[\d.]+ install\b/.test(step.run ?? '');
const isPublish = (step: Step) => step.uses?.startsWith('changesets/action/publish@') ?? false;
const mentionsSecret = (value: unknown) => JSON.stringify(value ?? {}).includes('secrets.');

function writes(permissions: Job['permissions']): string[] {
  if (typeof permissions === 'string') return permissions === 'write-all' ? ['all'] : [];
  return Object.entries(permissions ?? {})
    .filter(([, level]) => level === 'write')
    .map(([scope]) => scope);
}

describe('the workflows', () => {
  it.each(WORKFLOWS)('%s: no checkout keeps the GitHub token in .git/config', async (name) => {
    for (const job of Object.values((await workflow(name)).jobs)) {
      for (const step of job.steps.filter(isCheckout)) expect(step.with?.['persist-credentials']).toBe(false);
    }
  });

  it.each(['ci', 'release'])(
    '%s: every job that syncs specs reads them from the mirror checked out beside it',
    async (name) => {
      const flow = await workflow(name);
      for (const [id, job] of Object.entries(flow.jobs)) {
        const syncs = job.steps.some((step) => /\b(turbo run|contract|check)\b/.test(step.run ?? ''));
        if (!syncs) continue;
        const mirror = String(job.env?.SPECS_MIRROR ?? flow.env?.SPECS_MIRROR ?? '');
        const repo = job.defaults?.run?.['working-directory'] ?? '.';
        const mirrorCheckout = job.steps.find((step) => isCheckout(step) && step.with?.repository !== undefined);
        expect(mirror, `${name}.${id} sets SPECS_MIRROR`).not.toBe('');
        expect(mirrorCheckout, `${name}.${id} checks out the mirror`).toBeDefined();
        expect(posix.normalize(posix.join(repo, mirror)), `${name}.${id}: SPECS_MIRROR points at the mirror`).toBe(
          mirrorCheckout?.with?.path,
        );
        expect(job.steps.find(isCheckout)?.with?.path, `${name}.${id}: the repository is checked out in ${repo}`).toBe(
          repo,
        );
      }
      // The layout of `.ci/run` and the README: the mirror one level above the repository.
      expect(flow.env?.SPECS_MIRROR).toBe('../shared/specs-mirror');
      expect(flow.env).toHaveProperty('DIRECTORY_BASE_URL');
    },
  );

  it('release: grants nothing by default, write scopes only to the jobs that version or publish', async () => {
    const release = await workflow('release');
    expect(writes(release.permissions)).toEqual([]);
    expect(release.permissions).toEqual({});
    for (const [id, job] of Object.entries(release.jobs)) {
      const scopes = writes(job.permissions);
      if (job.steps.some(isPublish)) expect(scopes.sort(), id).toEqual(['contents', 'id-token']);
      else if (job.steps.some((step) => step.uses?.startsWith('changesets/action/version@'))) {
        expect(scopes.sort(), id).toEqual(['contents', 'pull-requests']);
      } else expect(scopes, id).toEqual([]);
    }
  });

  it('release: secrets reach only the steps that need them, never an install, a job or the workflow', async () => {
    const release = await workflow('release');
    expect(mentionsSecret(release.env)).toBe(false);
    for (const [id, job] of Object.entries(release.jobs)) {
      expect(mentionsSecret(job.env), id).toBe(false);
      for (const step of job.steps) {
        if (!mentionsSecret(step)) continue;
        const mirrorCheckout = isCheckout(step) && step.with?.repository !== undefined;
        expect(isPublish(step) || mirrorCheckout, `${id}: ${step.uses ?? step.run}`).toBe(true);
        expect(isInstall(step)).toBe(false);
      }
      // The npm token is never in the environment of an install (install scripts could read it).
      for (const step of job.steps.filter(isInstall)) expect(mentionsSecret(step)).toBe(false);
    }
    const publish = Object.values(release.jobs).find((job) => job.steps.some(isPublish));
    expect(JSON.stringify(publish?.steps.find(isPublish)?.env)).toContain('secrets.NPM_TOKEN');
  });
});

describe('package builds', () => {
  it('start from an empty dist in every published package', async () => {
    const packages = await publicPackages();
    expect(packages.length).toBeGreaterThan(0);
    for (const pkg of packages) {
      const scripts = pkg.manifest.scripts as Record<string, string> | undefined;
      expect(scripts?.build, pkg.dir).toMatch(/^node \.\.\/\.\.\/scripts\/clean-dist\.ts && /);
    }
  });

  it('leave no stray dist/.env or stale module to pack: a real build of a copy of core', {
    timeout: 120_000,
  }, async () => {
    // A copy laid out like the repository, sharing core's installed dependencies.
    const root = await mkdtemp(join(tmpdir(), 'agent-apis-clean-dist-'));
    const core = join(root, 'packages', 'core');
    await cp(join(REPO_ROOT, 'scripts'), join(root, 'scripts'), { recursive: true });
    await cp(join(REPO_ROOT, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
    // The build script's own dependencies (rolldown) resolve from the root, as in the repository.
    await symlink(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    for (const file of ['package.json', 'tsconfig.build.json', 'src']) {
      await cp(join(REPO_ROOT, 'packages', 'core', file), join(core, file), { recursive: true });
    }
    await symlink(join(REPO_ROOT, 'packages', 'core', 'node_modules'), join(core, 'node_modules'), 'dir');
    await mkdir(join(core, 'dist'));
    await writeFile(join(core, 'dist', '.env'), 'NPM_TOKEN=stray-token-do-not-ship\n');
    await writeFile(join(core, 'dist', 'removed-module.js'), 'export const stale = true;\n');

    const manifest = JSON.parse(await readFile(join(core, 'package.json'), 'utf8')) as {
      scripts: { build: string };
      files: string[];
    };
    // The build script as pnpm runs it: in the package folder, its node_modules/.bin first on PATH.
    await run('sh', ['-c', manifest.scripts.build], {
      cwd: core,
      env: { ...process.env, PATH: `${join(core, 'node_modules', '.bin')}:${process.env.PATH}` },
    });

    const built = await readdir(join(core, 'dist'), { recursive: true });
    await rm(root, { recursive: true, force: true });
    expect(built).toContain('index.js');
    expect(built).not.toContain('.env');
    expect(built).not.toContain('removed-module.js');
    // What `files` ships is dist (minus source maps): nothing else could carry the strays into the tarball.
    expect(manifest.files.filter((entry) => !entry.startsWith('!'))).toEqual(['dist']);
  });
});
