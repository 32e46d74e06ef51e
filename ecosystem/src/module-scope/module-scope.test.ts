/**
 * No module-scope side effects: every entry point of every published package loads without starting a timer,
 * making an abort controller or a random value, fetching or reading the environment. A runtime such as
 * Cloudflare Workers refuses those at global scope, so one of them is a load failure there.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publicPackages, REPO_ROOT } from '@agent-apis/test-utils/workspace';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

interface ImportReport {
  attempts: { operation: string; frame: string }[];
  failures: string[];
}

/** The built files of every export of a package (types and `package.json` left out). */
function entryFiles(dir: string, exportsField: unknown): string[] {
  const files: string[] = [];
  for (const [subpath, target] of Object.entries(exportsField as Record<string, unknown>)) {
    if (subpath === './package.json') continue;
    const file = typeof target === 'string' ? target : (target as { default?: string }).default;
    if (file) files.push(join(REPO_ROOT, dir, file));
  }
  return files;
}

const packages = await publicPackages();

describe('module scope', () => {
  it.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))(
    '%s: every entry point loads without timers, controllers, random values, fetch or environment reads',
    async (_name, pkg) => {
      const files = entryFiles(pkg.dir, pkg.manifest.exports);
      expect(files.length).toBeGreaterThan(0);
      const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'harness.ts'), ...files]);
      const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ImportReport;
      // Third-party code loaded by an entry point (faker under the `msw` entries) is listed, not ours to change.
      const ours = report.attempts.filter((attempt) => !attempt.frame.includes('/node_modules/'));
      const theirs = report.attempts.filter((attempt) => attempt.frame.includes('/node_modules/'));
      if (theirs.length > 0) {
        const lines = [...new Set(theirs.map((attempt) => `${attempt.operation} at ${attempt.frame}`))];
        console.log(`${pkg.manifest.name}: by a dependency at import:\n  ${lines.join('\n  ')}`);
      }
      expect(ours).toEqual([]);
      expect(
        report.failures.filter((failure) => !theirs.some((attempt) => failure.includes(attempt.operation))),
      ).toEqual([]);
    },
  );

  it('the harness catches what it guards against (a module that makes a controller at import)', async () => {
    const offender = `data:text/javascript,${encodeURIComponent('export const signal = new AbortController().signal;')}`;
    const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'harness.ts'), offender]);
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ImportReport;
    expect(report.attempts.map((attempt) => attempt.operation)).toEqual(['new AbortController()']);
    expect(report.failures).toHaveLength(1);
  });
});
