/**
 * Test support: the contract suite run as an operator runs it in live mode (CONTRACT_TARGET=live) in a child
 * process, its exit code, output and reports: `runContractLive` (`vitest run --project contract`, for the
 * live-mode, fault, write lifecycle and tool drift tests) and `spawnLive` under it (any script of this package, e.g.
 * `pnpm contract`'s `run/contract-run.ts`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceCoverage, ServiceSummary } from '../evidence/coverage.ts';
import { judgeService, runExitCode, type ServiceEvidence, type ServiceVerdict } from '../evidence/evidence.ts';

const packageDir = join(import.meta.dirname, '..', '..');

/** What one live run left: exit code, output, the reports folder and its coverage files. */
export interface LiveRun {
  code: number;
  output: string;
  reports: string;
  summaries: ServiceSummary[];
  coverage: (service: string) => Promise<ServiceCoverage>;
  /** The evidence files the run wrote, by service. */
  evidence: Record<string, ServiceEvidence>;
  /** Each service's state as `judgeService` judges its evidence. */
  verdicts: ServiceVerdict[];
  /** The exit code the evidence gives (`runExitCode`: 0 green, 1 failed, 3 unverified). */
  evidenceExit: number;
}

/**
 * Runs `node <args>` in this package in live mode, with only `env` (plus PATH and HOME) in the environment and
 * the reports in a fresh folder: its exit code, stdout and stderr together, and that folder.
 */
export async function spawnLive(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string; reports: string }> {
  const reports = await mkdtemp(join(tmpdir(), 'agent-apis-live-'));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      {
        cwd: packageDir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          CONTRACT_TARGET: 'live',
          CONTRACT_REPORTS_DIR: reports,
          ...env,
        },
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          output: stdout + stderr,
          reports,
        }),
    );
  });
}

/** Runs the contract files `files` in live mode with only `env` (plus PATH and HOME) in the environment. */
export async function runContractLive(env: Record<string, string>, files: string[]): Promise<LiveRun> {
  const vitest = join(packageDir, 'node_modules', 'vitest', 'vitest.mjs');
  const { code, output, reports } = await spawnLive([vitest, 'run', '--project', 'contract', ...files], env);
  const summaries = JSON.parse(await readFile(join(reports, 'live', 'coverage.json'), 'utf8').catch(() => '[]'));
  const coverage = async (service: string) =>
    JSON.parse(await readFile(join(reports, 'live', `coverage-${service}.json`), 'utf8')) as ServiceCoverage;
  const dir = join(reports, 'live');
  const evidence: Record<string, ServiceEvidence> = {};
  for (const file of (await readdir(dir).catch(() => [])).filter((f) => /^evidence-.+\.json$/.test(f))) {
    const data = JSON.parse(await readFile(join(dir, file), 'utf8')) as ServiceEvidence;
    evidence[data.service] = data;
  }
  const verdicts = Object.values(evidence).map((e) => judgeService(e));
  return { code, output, reports, summaries, coverage, evidence, verdicts, evidenceExit: runExitCode(verdicts) };
}
