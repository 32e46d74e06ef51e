/**
 * `pnpm mock` writes its specs and logs into a folder of its own (mkdtemp), never a fixed path of the shared
 * temporary directory where another user could have planted a symlink first.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForExit } from '@agent-apis/test-utils/processes';
import { REPO_ROOT } from '@agent-apis/test-utils/workspace';
import { afterAll, describe, expect, it } from 'vitest';

const MOCK_SCRIPT = join(import.meta.dirname, 'mock.ts');

describe('pnpm mock and its temporary folder', () => {
  let base = '';
  afterAll(async () => {
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('follows no symlink planted at the old fixed path, and removes its own folder when stopped (finding: pnpm mock temp folder)', async () => {
    base = await mkdtemp(join(tmpdir(), 'mock-folder-test-'));
    const shared = join(base, 'tmp');
    const decoy = join(base, 'decoy');
    await mkdir(shared);
    await mkdir(decoy);
    await symlink(decoy, join(shared, 'agent-apis-mock'));
    const child = spawn(process.execPath, [MOCK_SCRIPT, 'directory'], {
      cwd: REPO_ROOT,
      env: { ...process.env, MOCK_PORT: '0', TMPDIR: shared },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      while (!/^export DIRECTORY_BASE_URL=/m.test(printed)) {
        if (child.exitCode !== null) throw new Error(`pnpm mock did not start:\n${printed}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await readdir(decoy)).toEqual([]);
      const own = (await readdir(shared)).filter((name) => name.startsWith('agent-apis-mock-'));
      expect(own).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
      await waitForExit(child, 10_000);
    }
    expect(await readdir(decoy)).toEqual([]);
    expect((await readdir(shared)).filter((name) => name.startsWith('agent-apis-mock-'))).toEqual([]);
  }, 120_000);
});
