/**
 * The nightly run: spec drift → generate → build → tool-server drift → contract against mocks → contract live
 * where configured.
 * Every step runs even when an earlier one failed, so one report tells the whole story; the exit code is
 * non-zero when drift is breaking or any step failed. The summary goes to stdout and `reports/nightly.md`.
 *
 * Usage: `pnpm nightly` (run through pnpm so Node 24 from the repo is used).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const pnpm = ['npx', '-y', 'pnpm@12.21.0'];

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
}

const steps: Step[] = [
  { name: 'drift (specs:diff)', command: [...pnpm, 'specs:diff', '--changeset'] },
  { name: 'generate', command: [...pnpm, 'exec', 'turbo', 'run', 'generate'] },
  { name: 'build', command: [...pnpm, 'exec', 'turbo', 'run', 'build'] },
  // After generate: it reads the synced tool lists in specs/dist.
  { name: 'tool-server drift (mcp:diff)', command: [...pnpm, 'mcp:diff'] },
  { name: 'contract (mock)', command: [...pnpm, 'exec', 'turbo', 'run', 'contract'] },
  { name: 'contract (live)', command: [...pnpm, 'exec', 'turbo', 'run', 'contract'], env: { CONTRACT_TARGET: 'live' } },
];

const results = steps.map((step) => {
  console.log(`\n=== nightly: ${step.name} ===`);
  const started = Date.now();
  const [command, ...args] = step.command as [string, ...string[]];
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...step.env } });
  return { name: step.name, code: run.status ?? 1, seconds: Math.round((Date.now() - started) / 1000) };
});

const section = (title: string, file: string) =>
  existsSync(file)
    ? `\n## ${title}\n\n${readFileSync(file, 'utf8')}`
    : `\n## ${title}\n\n(no report: ${file} missing)\n`;

interface CoverageSummary {
  service: string;
  mode: string;
  skipped?: string;
  exceptions: { operation: string; check: string; outcome: string; note?: string }[];
}

/**
 * The contract checks of both targets with `outcome`, one line each: service, operation, check, and the note (a
 * fail names the field and the violation, a warning the parameter and what the server did, an inconclusive check
 * the guess it rested on).
 */
function checksWith(outcome: 'failed' | 'warning' | 'inconclusive'): string[] {
  return (['live', 'mock'] as const).flatMap((target) => {
    const file = join(root, 'contract-tests', 'reports', target, 'coverage.json');
    if (!existsSync(file)) return [];
    const summaries = JSON.parse(readFileSync(file, 'utf8')) as CoverageSummary[];
    return summaries.flatMap((s) =>
      s.exceptions
        .filter((e) => e.outcome === outcome)
        .map((e) => {
          const note = (e.note ?? outcome).replaceAll('\n', ' ').replace(`${e.operation}: ${e.check}: `, '');
          return `- ${target} ${s.service} \`${e.operation}\` ${e.check}: ${note}`;
        }),
    );
  });
}

/** The three verdicts of the contract runs: fails first, so the tracking issue quotes them even when the rest is cut. */
function verdicts(): string {
  const section = (title: string, lines: string[]) => `\n## ${title}\n\n${lines.length ? lines.join('\n') : 'None.'}\n`;
  return [
    section('Failing contract checks', checksWith('failed')),
    section(
      `Warnings (the server is more lenient than the spec; they fail the run only with CONTRACT_STRICT=1)`,
      checksWith('warning'),
    ),
    section('Inconclusive (the request rested on a guess)', checksWith('inconclusive')),
  ].join('');
}

const summary = [
  '# Nightly report',
  '',
  '| step | result | seconds |',
  '| --- | --- | --- |',
  ...results.map((r) => `| ${r.name} | ${r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`} | ${r.seconds} |`),
  verdicts(),
  section('Drift', join(root, 'specs', 'reports', 'drift.md')),
  section('Tool-server drift', join(root, 'specs', 'reports', 'mcp-drift.md')),
  section('Contract coverage (mock)', join(root, 'contract-tests', 'reports', 'mock', 'coverage.md')),
  section('Contract coverage (live)', join(root, 'contract-tests', 'reports', 'live', 'coverage.md')),
].join('\n');

mkdirSync(join(root, 'reports'), { recursive: true });
writeFileSync(join(root, 'reports', 'nightly.md'), `${summary}\n`);
console.log(`\n${summary}`);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
