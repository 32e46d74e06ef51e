/**
 * `pnpm nightly --only …` writes only what it ran: a section whose step was left out says so instead of copying an
 * earlier run's report file, and the contract checks of a target it did not run are not listed.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..', '..');

describe('pnpm nightly --only', () => {
  it('copies no section of a step it did not run, and lists no checks of a target it did not run', async () => {
    const reports = await mkdtemp(join(tmpdir(), 'agent-apis-nightly-'));
    // Its own folder for nightly.md too: a second `pnpm test` (or a real nightly) beside this one keeps its file.
    const nightlyDir = await mkdtemp(join(tmpdir(), 'agent-apis-nightly-md-'));
    // An earlier full run's files, which must not speak for this one.
    for (const target of ['mock', 'live']) {
      await mkdir(join(reports, target), { recursive: true });
      await writeFile(join(reports, target, 'coverage.md'), `EARLIER-${target}-COVERAGE\n`);
      await writeFile(
        join(reports, target, 'coverage.json'),
        JSON.stringify([
          {
            service: 'store',
            mode: target,
            exceptions: [{ operation: 'x', check: 'y', outcome: 'failed', note: `EARLIER-${target}-FAIL` }],
          },
        ]),
      );
    }
    const output = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        ['src/run/nightly.ts', '--only', 'no step has this name'],
        { cwd: packageDir, env: { ...process.env, CONTRACT_REPORTS_DIR: reports, NIGHTLY_REPORTS_DIR: nightlyDir } },
        (_error, stdout, stderr) => resolve(stdout + stderr),
      );
    });
    const nightly = await readFile(join(nightlyDir, 'nightly.md'), 'utf8');
    expect(nightly, output).not.toContain('EARLIER-');
    for (const [title, step] of [
      ['Drift', 'drift (specs:diff)'],
      ['Tool-server drift', 'tool-server drift (mcp:diff)'],
      ['Contract coverage (mock)', 'contract (mock)'],
      ['Contract coverage (live)', 'contract (live)'],
    ]) {
      expect(nightly).toContain(
        `## ${title}\n\nNot run by this nightly (\`--only no step has this name\` left out "${step}"): an earlier run's report is not copied.`,
      );
    }
    expect(nightly).toContain('## Failing contract checks\n\nNone.');
  });
});
