/**
 * `pnpm contract` (src/run/contract-run.ts) end to end in live mode against the directory stand-in: its exit code is
 * the run's state, and a base URL carrying `user:pw@` never reaches the output, vitest's JUnit file or any report.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnLive } from '../engine/live-run.ts';
import type { RunFile } from '../report/run-report.ts';
import { contractExitCode } from './contract-run.ts';

async function contract(env: Record<string, string>) {
  const { code, output, reports } = await spawnLive(
    ['src/run/contract-run.ts', 'src/checks/directory.contract.test.ts'],
    env,
  );
  const files: Record<string, string> = {};
  for (const entry of await readdir(reports, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files[join(entry.parentPath, entry.name)] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  const run = JSON.parse(files[join(reports, 'live', 'run.json')] ?? 'null') as RunFile | null;
  return { code, output, reports, files, run };
}

describe('pnpm contract (live) against the directory stand-in', () => {
  const standIn = startDirectoryStandIn();
  afterAll(async () => (await standIn).close());

  it('exits 0 when the run is green, with its JUnit file and HTML page in the live folder', async () => {
    const { url } = await standIn;
    const result = await contract({ DIRECTORY_BASE_URL: url });
    expect(result.code, result.output).toBe(0);
    expect(result.run?.exitCode).toBe(0);
    expect(result.run?.services.find((s) => s.service === 'directory')?.state).toBe('green');
    expect(result.output).toContain('contract: exit 0');
    expect(Object.keys(result.files).map((f) => f.slice(result.reports.length))).toEqual(
      expect.arrayContaining(['/live/junit.xml', '/live/coverage-junit.xml', '/live/report.html', '/live/run.json']),
    );
  });

  it('never shows user:pw@ of a base URL, in the output, the JUnit files or any report', async () => {
    const { url } = await standIn;
    const secret = 'pw-s3cret-7f1e';
    const result = await contract({ DIRECTORY_BASE_URL: url.replace('http://', `http://agent:${secret}@`) });
    // Node's fetch refuses a URL with credentials: nothing is verified, so the run is not green.
    expect(result.code).not.toBe(0);
    expect([1, 3]).toContain(result.run?.exitCode);
    expect(result.output).not.toContain(secret);
    for (const [file, text] of Object.entries(result.files)) expect(text, file).not.toContain(secret);
    expect(Object.keys(result.files).length).toBeGreaterThan(4);
  });
});

describe('the exit code of pnpm contract', () => {
  it('is the judgement, a failing test the evidence does not show is failed, and no judgement keeps vitest code', () => {
    expect(contractExitCode(0, 0).code).toBe(0);
    expect(contractExitCode(1, 3).code).toBe(3);
    expect(contractExitCode(0, 1).code).toBe(1);
    expect(contractExitCode(1, 0).code).toBe(1);
    expect(contractExitCode(0, undefined).code).toBe(3);
    expect(contractExitCode(130, undefined).code).toBe(130);
  });
});
