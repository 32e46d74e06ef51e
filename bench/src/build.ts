/**
 * Section 3, build: `turbo run build` cold (`--force`), warm with nothing changed, and after one spec changed
 * (a paragraph added to the description of `specs/trust/openapi.yaml`).
 *
 * The builds run in a scratch copy of the repository (sharing the root `node_modules`), so that edits other
 * people make while the bench runs neither invalidate the cache between two builds nor get built, and the spec
 * edit never touches the working tree. The copy is deleted afterwards. The sync task reads the upstream specs
 * from SPECS_MIRROR when it is set (offline), else from the network.
 */
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { round } from './measure.ts';
import { REPO_ROOT } from './paths.ts';
import { runCommand } from './run-command.ts';

/**
 * The published clients and everything they build from (core, codegen, specs). Packages outside this graph
 * are left out, so that a package someone has half-written cannot fail the measurement.
 */
const SCOPE = ['@agent-apis/directory...', '@agent-apis/store...', '@agent-apis/trust...'].map(
  (selector) => `--filter=${selector}`,
);

/** Paths (relative to the root) the scratch copy leaves out: dependencies are linked, caches and reports dropped. */
const NOT_COPIED = [/^node_modules$/, /(^|\/)\.turbo$/, /^bench\/\.work$/, /^contract-tests\/reports$/];

export interface BuildRow {
  build: 'cold (--force)' | 'warm, no change' | 'after one spec changed';
  seconds: number;
  /** Wall time divided by the cold build's. */
  ratioToCold: number;
  tasks: string;
  cached: string;
  ok: boolean;
  /** The end of turbo's output when the build failed. */
  failure?: string;
}

async function scratchCopy(): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'agent-apis-build-'));
  await cp(REPO_ROOT, scratch, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !NOT_COPIED.some((pattern) => pattern.test(relative(REPO_ROOT, source))),
  });
  await symlink(join(REPO_ROOT, 'node_modules'), join(scratch, 'node_modules'));
  return scratch;
}

/** The environment with a relative SPECS_MIRROR made absolute against the real root, not the copy's. */
function mirrorOfTheRealRepo(): NodeJS.ProcessEnv {
  const mirror = process.env.SPECS_MIRROR;
  return mirror ? { ...process.env, SPECS_MIRROR: resolve(REPO_ROOT, mirror) } : process.env;
}

async function turboBuild(root: string, build: BuildRow['build'], extraArgs: string[] = []) {
  const turbo = join(REPO_ROOT, 'node_modules', '.bin', 'turbo');
  const result = await runCommand(turbo, ['run', 'build', ...SCOPE, '--output-logs=errors-only', ...extraArgs], {
    cwd: root,
    env: mirrorOfTheRealRepo(),
  });
  const summary = (label: string) => new RegExp(`${label}:\\s+(.+)`).exec(result.output)?.[1]?.trim() ?? '?';
  return {
    build,
    wallMs: result.wallMs,
    tasks: summary('Tasks'),
    cached: summary('Cached'),
    ok: result.exitCode === 0,
    ...(result.exitCode === 0 ? {} : { failure: result.output.trim().split('\n').slice(-15).join('\n') }),
  };
}

/** Adds a paragraph to the first block-scalar `description:` of a spec; the edit changes no behaviour. */
function withMarkerParagraph(spec: string): string {
  const edited = spec.replace(/^(\s*description: [|>]-?\n)(\s+)/m, '$1$2Edited by the build benchmark.\n\n$2');
  if (edited === spec) throw new Error('found no block description to edit in the trust spec');
  return edited;
}

export async function measureBuilds(): Promise<BuildRow[]> {
  const scratch = await scratchCopy();
  try {
    const cold = await turboBuild(scratch, 'cold (--force)', ['--force']);
    const warm = await turboBuild(scratch, 'warm, no change');
    const spec = join(scratch, 'specs', 'trust', 'openapi.yaml');
    await writeFile(spec, withMarkerParagraph(await readFile(spec, 'utf8')));
    const changed = await turboBuild(scratch, 'after one spec changed');
    return [cold, warm, changed].map(({ wallMs, ...row }) => ({
      ...row,
      seconds: round(wallMs / 1_000, 2),
      ratioToCold: round(wallMs / cold.wallMs, 3),
    }));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
