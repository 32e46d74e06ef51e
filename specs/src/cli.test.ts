import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPECS_ROOT } from './services.ts';
import { MIRROR, scratchMirror } from './test-support.ts';

const run = promisify(execFile);
const cli = join(DEFAULT_SPECS_ROOT, 'src', 'cli.ts');

async function specs(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('specs CLI', () => {
  it('sync prints per service the pinned hash, operation count and a clean lint', async () => {
    const result = await specs(['sync'], { SPECS_MIRROR: MIRROR });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const storeLock = JSON.parse(await readFile(join(DEFAULT_SPECS_ROOT, 'store', 'lock.json'), 'utf8'));
    const row = (service: string) => result.stdout.split('\n').find((line) => line.startsWith(`${service} `)) ?? '';
    expect(row('store')).toContain(storeLock.sha256);
    expect(row('store').split(/\s{2,}/)).toEqual(expect.arrayContaining(['179', 'ok', 'clean', 'valid']));
    expect(row('directory').split(/\s{2,}/)).toEqual(expect.arrayContaining(['11', 'clean', 'valid']));
    expect(row('trust').split(/\s{2,}/)).toEqual(expect.arrayContaining(['clean', 'valid']));
  });

  it('sync fails on a mirror file with one byte changed, with the hash-mismatch message', async () => {
    const mirror = await scratchMirror({ store: (bytes) => Buffer.concat([bytes, Buffer.from(' ')]) });
    const result = await specs(['sync', 'store'], { SPECS_MIRROR: mirror });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('store: the upstream document does not match its pin.');
    expect(result.stderr).toContain('If this change is intended, accept it with: pnpm specs:update store');
  });

  it('rejects an unknown service with usage', async () => {
    const result = await specs(['sync', 'shop'], { SPECS_MIRROR: MIRROR });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown service "shop"');
  });
});
