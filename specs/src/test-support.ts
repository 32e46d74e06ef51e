import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_SPECS_ROOT, mirrorFromEnv, REPO_ROOT } from './services.ts';

/** The mirror of upstream documents the tests read (never copied into the repo). */
export const MIRROR = mirrorFromEnv() ?? resolve(REPO_ROOT, '../shared/specs-mirror');

/** A scratch copy of `specs/` (locks, overlays, hand-written documents) for tests that write. */
export async function scratchSpecsRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'agent-apis-specs-'));
  for (const service of ['directory', 'store', 'trust']) {
    await cp(join(DEFAULT_SPECS_ROOT, service), join(root, service), { recursive: true });
  }
  await cp(join(DEFAULT_SPECS_ROOT, 'redocly.yaml'), join(root, 'redocly.yaml'));
  return root;
}

/** A scratch mirror holding the real upstream bytes, optionally changed by `edit`. */
export async function scratchMirror(
  edits: Partial<Record<'store' | 'directory', (bytes: Buffer) => Buffer | string>> = {},
): Promise<string> {
  const mirror = await mkdtemp(join(tmpdir(), 'agent-apis-mirror-'));
  for (const service of ['store', 'directory'] as const) {
    const bytes = await readFile(join(MIRROR, service, 'openapi.json'));
    await mkdir(join(mirror, service));
    const edit = edits[service];
    await writeFile(join(mirror, service, 'openapi.json'), edit ? edit(bytes) : bytes);
  }
  return mirror;
}
