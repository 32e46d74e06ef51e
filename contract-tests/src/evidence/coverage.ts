/**
 * The contract coverage report: per service, operations exercised / total and error statuses exercised /
 * documented (per agent tool server: tools exercised / total), with every exception and its reason. Test files
 * record outcomes into `reports/coverage-<service>.json`; the global teardown aggregates them into a printed table,
 * `coverage.md`, `coverage.json` and `coverage-junit.xml` (`report/coverage-md.ts`).
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPORTS_DIR } from '../settings.ts';
import { refuseLinkedFolder } from './files.ts';

/** Coverage of one target lives in its own folder, so a live run does not overwrite the mock run's report. */
export function coverageDir(mode: 'mock' | 'live'): string {
  return join(REPORTS_DIR, mode);
}

/**
 * A check's verdict. `failed`: the contract's promise is broken. `warning`: the server is more lenient than the
 * spec's input rules, or answered a request the suite constructed with a 4xx. `inconclusive`: the request rested
 * on a guess (a provisional operation, a guessed link, an invented body), so its rejection says nothing.
 * `skipped`: not run, with the reason.
 */
export type Outcome = 'passed' | 'failed' | 'warning' | 'inconclusive' | 'skipped';

export const OUTCOMES: readonly Outcome[] = ['passed', 'failed', 'warning', 'inconclusive', 'skipped'];

export interface CoverageEntry {
  operation: string;
  /** `success:required`, `success:all`, `error:<status>`, `invalid-request`. */
  check: string;
  outcome: Outcome;
  /** Why it failed or was skipped, or how an invalid request was stopped. */
  note?: string;
}

export interface ServiceCoverage {
  service: string;
  mode: 'mock' | 'live';
  operations: string[];
  documentedErrors: Record<string, number[]>;
  entries: CoverageEntry[];
  /** Set when the whole service was not exercised. */
  skipped?: string;
  /** `tools`: an agent tool server; `operations` are its tools, exercised when their `call:*` checks passed. */
  kind?: 'tools';
  /** Live runs: requests sent, 429s received, metered scans spent (see `engine/budget.ts`). */
  budget?: { requests: number; tooManyRequests: number; scans?: number; scanBudget?: number; rateLimit?: string };
  /** Live write runs: record counts per family before and after, and marked records of earlier runs swept. */
  records?: Record<string, { before: number; after: number; swept: number }>;
  /** Live runs: per operation, how many records its answers carried that were validated (list entries, lookups). */
  recordsChecked?: Record<string, number>;
}

/** Collects one service's outcomes; a check counts as failed until the test marks it passed. */
export class CoverageRecorder {
  readonly #data: ServiceCoverage;

  constructor(
    service: string,
    mode: 'mock' | 'live',
    operations: string[],
    documentedErrors: Record<string, number[]>,
    kind: 'operations' | 'tools' = 'operations',
  ) {
    this.#data = { service, mode, operations, documentedErrors, entries: [], ...(kind === 'tools' ? { kind } : {}) };
  }

  /** Puts a live object into the report (`budget`, or `records:<family>`), serialized as it is when written. */
  attach(key: string, value: object): void {
    const [field, name] = key.split(':');
    if (field === 'budget') this.#data.budget = value as ServiceCoverage['budget'];
    else if (field === 'records' && name) {
      this.#data.records = { ...this.#data.records, [name]: value as { before: number; after: number; swept: number } };
    }
  }

  skipService(reason: string): void {
    this.#data.skipped = reason;
  }

  /**
   * Starts a check as failed; call the returned function when it ended otherwise: passed (with an optional note),
   * or with the verdict it reached (a warning, an inconclusive answer).
   */
  begin(operation: string, check: string): (note?: string, outcome?: Exclude<Outcome, 'failed' | 'skipped'>) => void {
    const entry: CoverageEntry = { operation, check, outcome: 'failed' };
    this.#data.entries.push(entry);
    return (note, outcome = 'passed') => {
      entry.outcome = outcome;
      if (note) entry.note = note;
    };
  }

  fail(operation: string, check: string, note: string): void {
    const entry = this.#data.entries.findLast((e) => e.operation === operation && e.check === check);
    if (entry && entry.outcome === 'failed') entry.note = note;
  }

  /** Records a finished check with its verdict in one step. */
  verdict(operation: string, check: string, outcome: Exclude<Outcome, 'skipped'>, note?: string): void {
    this.#data.entries.push({ operation, check, outcome, ...(note ? { note } : {}) });
  }

  /** Adds `count` validated records to `operation`'s tally. */
  countRecords(operation: string, count: number): void {
    this.#data.recordsChecked ??= {};
    this.#data.recordsChecked[operation] = (this.#data.recordsChecked[operation] ?? 0) + count;
  }

  skip(operation: string, check: string, reason: string): void {
    this.#data.entries.push({ operation, check, outcome: 'skipped', note: reason });
  }

  /** A copy of what was recorded so far. */
  snapshot(): ServiceCoverage {
    return structuredClone(this.#data);
  }

  async write(dir: string): Promise<void> {
    await refuseLinkedFolder(dir);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `coverage-${this.#data.service}.json`), `${JSON.stringify(this.#data, null, 2)}\n`);
  }
}

export interface ServiceSummary {
  service: string;
  mode: string;
  operationsExercised: number;
  operationsTotal: number;
  errorsExercised: number;
  errorsDocumented: number;
  /** Agent tool servers only. */
  toolsExercised?: number;
  toolsTotal?: number;
  failed: number;
  /** Live runs: checks that warned and checks that were inconclusive. */
  warnings?: number;
  inconclusive?: number;
  skipped?: string;
  exceptions: CoverageEntry[];
  budget?: ServiceCoverage['budget'];
  records?: ServiceCoverage['records'];
  /** Live runs: per named check, how many passed, failed, warned, were inconclusive and were skipped. */
  checks?: Record<string, Record<Outcome, number>>;
  recordsChecked?: Record<string, number>;
}

/** One tool's verdict on a tool server, from its checks (see `toolVerdicts`). */
export interface ToolVerdict {
  verdict: 'verified' | 'failed' | 'inconclusive' | 'not-run';
  /** Why it is not verified, one line. */
  reason?: string;
  /** Warnings of its checks (a server accepting input its schema forbids), one line each. */
  warnings: string[];
}

/**
 * The verdict of every tool of a tool server's coverage, the one rule every report counts tools by. A tool is
 * `verified` only when it was called and its answer checked: `call:required` passed and `call:all` passed or was
 * skipped. Checks that send nothing (`invalid:client`) never make a tool verified, though one that failed fails
 * it. A failed check fails the tool; an inconclusive call leaves it inconclusive; a tool never called is `not-run`
 * with the reason its calls were skipped (a failed handshake, a write without permission, no record to read).
 */
export function toolVerdicts(data: ServiceCoverage): Map<string, ToolVerdict> {
  const out = new Map<string, ToolVerdict>();
  for (const tool of data.operations) {
    const entries = data.entries.filter((e) => e.operation === tool);
    const warnings = entries.filter((e) => e.outcome === 'warning').map((e) => `${e.check}: ${e.note ?? 'warning'}`);
    const call = (which: string) => entries.filter((e) => e.check === `call:${which}`);
    const failed = entries.find((e) => e.outcome === 'failed');
    const required = call('required');
    const all = call('all');
    const inconclusive = [...required, ...all].find((e) => e.outcome === 'inconclusive');
    const called =
      required.length > 0 &&
      required.every((e) => e.outcome === 'passed') &&
      all.every((e) => e.outcome === 'passed' || e.outcome === 'skipped');
    if (data.skipped !== undefined) out.set(tool, { verdict: 'not-run', reason: data.skipped, warnings });
    else if (failed)
      out.set(tool, { verdict: 'failed', reason: `${failed.check}: ${failed.note ?? 'failed'}`, warnings });
    else if (inconclusive) {
      out.set(tool, { verdict: 'inconclusive', reason: `${inconclusive.check}: ${inconclusive.note ?? ''}`, warnings });
    } else if (called) out.set(tool, { verdict: 'verified', warnings });
    else {
      const skipped = [...required, ...all].find((e) => e.outcome === 'skipped');
      out.set(tool, { verdict: 'not-run', reason: skipped?.note ?? 'never called', warnings });
    }
  }
  return out;
}

export function summarize(data: ServiceCoverage): ServiceSummary {
  const has = (operation: string, check: string, outcome: Outcome) =>
    data.entries.some((e) => e.operation === operation && e.check === check && e.outcome === outcome);
  const passed = (operation: string, check: string) => has(operation, check, 'passed');
  /**
   * Operations (or tools) whose `<prefix>:required` check passed and whose `<prefix>:all` check passed or was
   * skipped (live: no optional input, or the trust scan budget), never failed.
   */
  const exercised = (prefix: string) =>
    data.skipped
      ? 0
      : data.operations.filter(
          (op) =>
            passed(op, `${prefix}:required`) &&
            (passed(op, `${prefix}:all`) ||
              (has(op, `${prefix}:all`, 'skipped') && !has(op, `${prefix}:all`, 'failed'))),
        ).length;
  const tools = data.kind === 'tools';
  // Live: `success:*` entries sum up the named checks of a call; the verdicts are counted on the named checks.
  const verdicts = data.mode === 'live' ? data.entries.filter((e) => !e.check.startsWith('success:')) : data.entries;
  let errorsDocumented = 0;
  let errorsExercised = 0;
  for (const [operation, statuses] of Object.entries(data.documentedErrors)) {
    errorsDocumented += statuses.length;
    errorsExercised += statuses.filter((status) => passed(operation, `error:${status}`)).length;
  }
  return {
    service: data.service,
    mode: data.mode,
    operationsExercised: tools ? 0 : exercised('success'),
    operationsTotal: tools ? 0 : data.operations.length,
    errorsExercised: data.skipped ? 0 : errorsExercised,
    errorsDocumented,
    ...(tools
      ? {
          toolsExercised: [...toolVerdicts(data).values()].filter((v) => v.verdict === 'verified').length,
          toolsTotal: data.operations.length,
        }
      : {}),
    failed: verdicts.filter((e) => e.outcome === 'failed').length,
    ...(data.mode === 'live'
      ? {
          warnings: verdicts.filter((e) => e.outcome === 'warning').length,
          inconclusive: verdicts.filter((e) => e.outcome === 'inconclusive').length,
        }
      : {}),
    ...(data.skipped ? { skipped: data.skipped } : {}),
    exceptions: data.entries.filter(
      (e) =>
        e.outcome !== 'passed' && !(data.mode === 'live' && e.check.startsWith('success:') && e.outcome !== 'skipped'),
    ),
    ...(data.budget ? { budget: data.budget } : {}),
    ...(data.records ? { records: data.records } : {}),
    ...(data.mode === 'live' ? { checks: countChecks(data.entries) } : {}),
    ...(data.recordsChecked ? { recordsChecked: data.recordsChecked } : {}),
  };
}

function countChecks(entries: CoverageEntry[]): Record<string, Record<Outcome, number>> {
  const checks: Record<string, Record<Outcome, number>> = {};
  for (const entry of entries) {
    const name = entry.check.startsWith('error:') ? 'error' : entry.check.replace(/:.*/, '');
    checks[name] ??= { passed: 0, failed: 0, warning: 0, inconclusive: 0, skipped: 0 };
    checks[name][entry.outcome]++;
  }
  return checks;
}

export const COVERAGE_FILE = /^coverage-[a-z]+(-mcp)?\.json$/;
const EVIDENCE_FILE = /^evidence-[a-z]+(-mcp)?\.json$/;

/** Removes the per-service files of an earlier run, so a report only speaks of this one. */
export async function clearCoverage(dir: string): Promise<void> {
  await refuseLinkedFolder(dir);
  const files = (await readdir(dir).catch(() => [])).filter((f) => COVERAGE_FILE.test(f) || EVIDENCE_FILE.test(f));
  await Promise.all(files.map((f) => rm(join(dir, f), { force: true })));
}
