/**
 * Section 4, contract suite: wall time and peak memory (the whole process tree, Prism included) of the
 * contract project's service suites against the Prism mocks (other contract files, such as the MCP ones, are
 * not Prism-backed and have no floor here), and the same for its floor, `contract-floor.ts`: the same
 * requests, recorded from a first run of the suite (which also warms caches), sent raw to the same mocks.
 * Ratio = median of the unrecorded suite runs / median of the floor runs.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { median, mib, round } from './measure.ts';
import { REPO_ROOT, WORK_DIR } from './paths.ts';
import { type CommandResult, runCommand } from './run-command.ts';

const CONTRACT_DIR = join(REPO_ROOT, 'contract-tests');
const VITEST = join(CONTRACT_DIR, 'node_modules', 'vitest', 'vitest.mjs');
const RECORDING = join(WORK_DIR, 'contract-requests.jsonl');
/** Where the suite's reports go during the bench. */
const REPORTS = join(WORK_DIR, 'contract-reports');
/** The test files of the contract project that run against the Prism mocks (file-name filters for vitest). */
const PRISM_SUITES = ['directory.contract', 'store.contract', 'trust.contract'];

export interface ContractRow {
  run: string;
  seconds: number;
  peakMiB: number;
  /** Requests sent (from the recording), and for the suite its vitest summary. */
  detail: string;
}

export interface ContractResult {
  rows: ContractRow[];
  timeRatio: number;
  memoryRatio: number;
}

function vitestSummary(output: string): string {
  return /Tests\s+(.+)/.exec(stripVTControlCharacters(output))?.[1]?.trim() ?? 'no vitest summary';
}

/** Measured runs of the suite and of the floor, alternating; the figures are their medians. */
const RUNS = 3;

export async function measureContractSuite(): Promise<ContractResult> {
  const suite = [
    VITEST,
    'run',
    '--project',
    'contract',
    // Only the console reporter: the configured JUnit file would land in contract-tests/reports.
    '--reporter=default',
    ...PRISM_SUITES,
  ];
  // The suite's reports and Prism logs go to the bench's scratch folder, not over those of a real run.
  const env = { ...process.env, CONTRACT_REPORTS_DIR: REPORTS };
  await rm(RECORDING, { force: true });
  const recorder = pathToFileURL(join(import.meta.dirname, 'record-requests.ts')).href;
  const recorded = await runCommand(process.execPath, suite, {
    cwd: CONTRACT_DIR,
    env: {
      ...env,
      BENCH_RECORD_FILE: RECORDING,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${recorder}`.trim(),
    },
  });

  const suiteRuns: CommandResult[] = [];
  const floorRuns: CommandResult[] = [];
  for (let run = 0; run < RUNS; run++) {
    suiteRuns.push(await runCommand(process.execPath, suite, { cwd: CONTRACT_DIR, env }));
    const floor = await runCommand(process.execPath, [join(import.meta.dirname, 'contract-floor.ts'), RECORDING], {
      cwd: REPO_ROOT,
    });
    if (floor.exitCode !== 0) throw new Error(`contract floor failed:\n${floor.output}`);
    floorRuns.push(floor);
  }
  const { requests, failed } = JSON.parse(floorRuns[0]?.output.trim().split('\n').at(-1) ?? '{}') as {
    requests: number;
    failed: number;
  };
  const seconds = (runs: readonly CommandResult[]) => round(median(runs.map((run) => run.wallMs)) / 1_000, 2);
  const peak = (runs: readonly CommandResult[]) => median(runs.map((run) => run.peakRssBytes));
  const samples = (runs: readonly CommandResult[]) =>
    `runs: ${runs.map((run) => (run.wallMs / 1_000).toFixed(1)).join(' / ')} s`;
  const rows: ContractRow[] = [
    {
      run: 'contract suite, first run, recording its requests (not counted)',
      seconds: round(recorded.wallMs / 1_000, 2),
      peakMiB: mib(recorded.peakRssBytes),
      detail: `${vitestSummary(recorded.output)}; exit ${recorded.exitCode}`,
    },
    {
      run: `contract suite (directory, store, trust vs Prism), median of ${RUNS}`,
      seconds: seconds(suiteRuns),
      peakMiB: mib(peak(suiteRuns)),
      detail: `${vitestSummary(suiteRuns.at(-1)?.output ?? '')}; exit ${suiteRuns.map((run) => run.exitCode).join('/')}; ${samples(suiteRuns)}`,
    },
    {
      run: `floor: same Prism mocks, same requests with plain fetch, median of ${RUNS}`,
      seconds: seconds(floorRuns),
      peakMiB: mib(peak(floorRuns)),
      detail: `${requests} requests, ${failed} without a response; ${samples(floorRuns)}`,
    },
  ];
  return {
    rows,
    timeRatio: round(median(suiteRuns.map((run) => run.wallMs)) / median(floorRuns.map((run) => run.wallMs)), 2),
    memoryRatio: round(peak(suiteRuns) / peak(floorRuns), 2),
  };
}
