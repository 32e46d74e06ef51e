/**
 * The nightly run: spec drift → generate → build → tool-server drift → contract against mocks → contract live
 * where configured.
 * Every step runs even when an earlier one failed, so one report tells the whole story. A contract step reports the
 * run's state from its `run.json` (green, failed, unverified, or "skipped (not configured)" when no service was
 * configured and none is named in CONTRACT_REQUIRE), never "ok" for a run that verified nothing. The exit code is
 * non-zero when drift is breaking or any step failed, a contract run included (failed or unverified); a live run
 * with nothing configured is not a failure, and says so. The summary goes to stdout and `reports/nightly.md` (or
 * `$NIGHTLY_REPORTS_DIR/nightly.md`, so a test or a second nightly writes its own file).
 *
 * Usage: `pnpm nightly` (run through pnpm so Node 24 from the repo is used); `pnpm nightly --only "contract (live)"`
 * runs the steps whose name contains the text; the report copies only what those steps wrote (a section of a step
 * left out says so, and a report file older than this nightly is marked stale with when it was written).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownText } from '../report/escape.ts';
import { nightlyExitCode, runSection, type StepRun, stepResult, stepTable } from '../report/nightly.ts';
import type { RunFile } from '../report/run-report.ts';
import { REPORTS_DIR } from '../settings.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const pnpm = ['npx', '-y', 'pnpm@12.21.0'];
/** Where `nightly.md` goes: `reports/` at the repository root, or NIGHTLY_REPORTS_DIR. */
const nightlyReports = process.env.NIGHTLY_REPORTS_DIR?.trim() || join(root, 'reports');

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** A contract step: its judgement is `contract-tests/reports/<target>/run.json`. */
  target?: 'mock' | 'live';
}

const steps: Step[] = [
  { name: 'drift (specs:diff)', command: [...pnpm, 'specs:diff', '--changeset'] },
  { name: 'generate', command: [...pnpm, 'exec', 'turbo', 'run', 'generate'] },
  { name: 'build', command: [...pnpm, 'exec', 'turbo', 'run', 'build'] },
  // After generate: it reads the synced tool lists in specs/dist.
  { name: 'tool-server drift (mcp:diff)', command: [...pnpm, 'mcp:diff'] },
  // Our own tools/list against packages/mcp-server/tools-list.json: a breaking change writes a major changeset.
  {
    name: 'own tool list (tools:drift)',
    command: [...pnpm, '--filter', '@agent-apis/mcp-server', 'tools:drift', '--changeset'],
  },
  {
    name: 'contract (mock)',
    command: [...pnpm, 'exec', 'turbo', 'run', 'contract'],
    env: { CONTRACT_TARGET: 'mock' },
    target: 'mock',
  },
  {
    name: 'contract (live)',
    command: [...pnpm, 'exec', 'turbo', 'run', 'contract'],
    env: { CONTRACT_TARGET: 'live' },
    target: 'live',
  },
];

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const contractReports = REPORTS_DIR;
const runFile = (target: 'mock' | 'live') => join(contractReports, target, 'run.json');
const readRun = (target: 'mock' | 'live'): RunFile | undefined => {
  try {
    return JSON.parse(readFileSync(runFile(target), 'utf8')) as RunFile;
  } catch {
    return undefined;
  }
};

const nightlyStarted = Date.now();
const chosen = steps.filter((step) => !only || step.name.includes(only));
const stepRuns: StepRun[] = chosen.map((step) => {
  console.log(`\n=== nightly: ${step.name} ===`);
  // A judgement of an earlier night must never speak for tonight.
  if (step.target) rmSync(runFile(step.target), { force: true });
  const started = Date.now();
  const [command, ...args] = step.command as [string, ...string[]];
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...step.env } });
  return {
    name: step.name,
    code: run.status ?? 1,
    seconds: Math.round((Date.now() - started) / 1000),
    ...(step.target ? { target: step.target, run: readRun(step.target) } : {}),
  };
});
const results = stepRuns.map(stepResult);
const ran = (target: 'mock' | 'live') => stepRuns.some((step) => step.target === target);

/** Where the HTML page of a run is: in the run's artifact on GitHub, else on this disk. */
function htmlLink(target: 'mock' | 'live'): string | undefined {
  if (!existsSync(join(contractReports, target, 'report.html'))) return undefined;
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = process.env;
  const path = `contract-tests/reports/${target}/report.html`;
  return server && repo && id
    ? `[${path} in the nightly-reports artifact](${server}/${repo}/actions/runs/${id}#artifacts)`
    : `\`${join(contractReports, target, 'report.html')}\``;
}

/**
 * A section copied from a report file that `step` writes. Only what this nightly ran is copied: the file of a step
 * left out by `--only` is not (one line says so), and a file older than this nightly (its step failed before
 * writing it) is marked with when it was written.
 */
const section = (title: string, file: string, step: string) => {
  if (!chosen.some((s) => s.name === step)) {
    return `\n## ${title}\n\nNot run by this nightly (\`--only ${markdownText(only ?? '')}\` left out "${step}"): an earlier run's report is not copied.\n`;
  }
  if (!existsSync(file)) return `\n## ${title}\n\n(no report: ${file} missing)\n`;
  const written = statSync(file).mtimeMs;
  const stale =
    written < nightlyStarted
      ? `> **Stale**: written ${new Date(written).toISOString()} by an earlier run, before this nightly started; "${step}" did not write it tonight.\n\n`
      : '';
  return `\n## ${title}\n\n${stale}${readFileSync(file, 'utf8')}`;
};

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
  // Only the targets this nightly ran: another run's coverage never speaks for tonight.
  return (['live', 'mock'] as const).filter(ran).flatMap((target) => {
    const file = join(contractReports, target, 'coverage.json');
    if (!existsSync(file)) return [];
    const summaries = JSON.parse(readFileSync(file, 'utf8')) as CoverageSummary[];
    return summaries.flatMap((s) =>
      s.exceptions
        .filter((e) => e.outcome === outcome)
        .map((e) => {
          const note = (e.note ?? outcome).replace(`${e.operation}: ${e.check}: `, '');
          return `- ${target} ${s.service} ${markdownText(e.operation)} ${markdownText(e.check)}: ${markdownText(note.replace(/\s+/g, ' ').slice(0, 400))}`;
        }),
    );
  });
}

/** The three verdicts of the contract runs: fails first, so the tracking issue quotes them even when the rest is cut. */
function verdicts(): string {
  // Folded: the causes at the top of each contract section say what matters; these are every line of it.
  const section = (title: string, lines: string[]) =>
    `\n## ${title}\n\n${lines.length ? `<details><summary>${lines.length} check(s)</summary>\n\n${lines.join('\n')}\n\n</details>` : 'None.'}\n`;
  return [
    section('Failing contract checks', checksWith('failed')),
    section(
      `Warnings (the server is more lenient than the spec; they fail the run only with CONTRACT_STRICT=1)`,
      checksWith('warning'),
    ),
    section('Inconclusive (the request rested on a guess)', checksWith('inconclusive')),
  ].join('');
}

// Cause first: each contract run's states and causes, then the steps, then the folded lists and copied reports.
const summary = [
  '# Nightly report',
  ...(['live', 'mock'] as const)
    .filter(ran)
    .map((target) => runSection(`Contract (${target})`, readRun(target), htmlLink(target))),
  '',
  '## Steps',
  '',
  stepTable(results),
  verdicts(),
  section('Drift', join(root, 'specs', 'reports', 'drift.md'), 'drift (specs:diff)'),
  section('Tool-server drift', join(root, 'specs', 'reports', 'mcp-drift.md'), 'tool-server drift (mcp:diff)'),
  section('Contract coverage (mock)', join(contractReports, 'mock', 'coverage.md'), 'contract (mock)'),
  section('Contract coverage (live)', join(contractReports, 'live', 'coverage.md'), 'contract (live)'),
].join('\n');

mkdirSync(nightlyReports, { recursive: true });
writeFileSync(join(nightlyReports, 'nightly.md'), `${summary}\n`);
console.log(`\n${summary}`);
process.exitCode = nightlyExitCode(results);
