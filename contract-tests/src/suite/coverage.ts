/**
 * The contract coverage report: per service, operations exercised / total and error statuses exercised /
 * documented (per agent tool server: tools exercised / total), with every exception and its reason. Test files
 * record outcomes into `reports/coverage-<service>.json`; the global teardown aggregates them into a printed table,
 * `coverage.md`, `coverage.json` and `coverage-junit.xml`.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderStatesMarkdown, renderStatesText, writeRunReports } from '../report/run-report.ts';
import { type JudgedService, STATE_LABELS } from '../report/states.ts';
import { markdownData, markdownNameData, maskingFrom, maskText } from '../report/text.ts';

/** Where reports go: `contract-tests/reports`, or CONTRACT_REPORTS_DIR. */
export const REPORTS_DIR = process.env.CONTRACT_REPORTS_DIR ?? join(import.meta.dirname, '..', '..', 'reports');

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

/** CONTRACT_STRICT=1: warnings fail the run too (for a maintainer who wants to see them red). */
export function strictMode(env: Record<string, string | undefined> = process.env): boolean {
  return ['1', 'true'].includes((env.CONTRACT_STRICT ?? '').trim().toLowerCase());
}

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
  /** Live runs: requests sent, 429s received, metered scans spent (see `live-budget.ts`). */
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

  /** Starts a check as failed; call the returned function when it passed (with an optional note). */
  begin(operation: string, check: string): (note?: string) => void {
    const entry: CoverageEntry = { operation, check, outcome: 'failed' };
    this.#data.entries.push(entry);
    return (note) => {
      entry.outcome = 'passed';
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
    ...(tools ? { toolsExercised: exercised('call'), toolsTotal: data.operations.length } : {}),
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

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Live runs: per service the requests sent, 429s received, metered scans spent, and record counts of write runs. */
export function renderBudgets(summaries: ServiceSummary[]): string {
  const rows = summaries
    .filter((s) => s.mode === 'live' && s.toolsTotal === undefined)
    .map((s) => [
      s.service,
      s.budget ? String(s.budget.requests) : '-',
      s.budget ? String(s.budget.tooManyRequests) : '-',
      s.budget?.scanBudget !== undefined ? `${s.budget.scans}/${s.budget.scanBudget}` : '-',
      s.budget?.rateLimit ?? '-',
      Object.entries(s.records ?? {})
        .map(([family, r]) => `${family} ${r.before}→${r.after}${r.swept ? ` (swept ${r.swept})` : ''}`)
        .join(', ') || '-',
    ]);
  return table(['service', 'requests', '429s', 'scans (quota)', 'rate limit', 'records before→after'], rows);
}

/** Live runs: per service and named check, passed / failed / warning / inconclusive / skipped. */
export function renderChecks(summaries: ServiceSummary[]): string {
  const rows = summaries.flatMap((s) =>
    Object.entries(s.checks ?? {}).map(([check, n]) => [s.service, check, ...OUTCOMES.map((o) => String(n[o] ?? 0))]),
  );
  return table(['service', 'check', ...OUTCOMES], rows);
}

/** Live runs: per service the verdict counts, the figures the exit code is decided on. */
export function renderVerdicts(summaries: ServiceSummary[]): string {
  const rows = summaries
    .filter((s) => s.mode === 'live')
    .map((s) => [
      s.service,
      String(s.failed),
      String(s.warnings ?? 0),
      String(s.inconclusive ?? 0),
      s.skipped ? `${STATE_LABELS.skipped}: ${maskText(s.skipped, maskingFrom(), 200)}` : '',
    ]);
  return table(['service', 'fail', 'warn', 'inconclusive', 'note'], rows);
}

/** Live runs: per operation, how many records its answers carried that were validated. */
export function renderRecordsChecked(summaries: ServiceSummary[]): string {
  const rows = summaries.flatMap((s) =>
    Object.entries(s.recordsChecked ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operation, n]) => [s.service, operation, String(n)]),
  );
  return rows.length ? table(['service', 'operation', 'records checked'], rows) : 'None.';
}

/** One line per check of `outcome`, naming service, operation, check and the note. */
export function verdictLines(
  summaries: ServiceSummary[],
  outcome: Outcome,
  format: 'markdown' | 'text' = 'markdown',
): string[] {
  const masking = maskingFrom();
  const f = (text: string, max?: number) =>
    format === 'markdown' ? markdownData(text, masking, max) : maskText(text, masking, max);
  const name = (text: string) => (format === 'markdown' ? markdownNameData(text, masking) : maskText(text, masking));
  // A check is one of ours (`negative_data_rejection`, `error:404`): written as it is when it looks like one.
  const checkName = (text: string) => (/^[a-z][a-z0-9_:.-]*[a-z0-9]$/i.test(text) ? text : f(text));
  return summaries.flatMap((s) =>
    s.exceptions
      .filter((e) => e.outcome === outcome)
      .map((e) => {
        const note = (e.note ?? outcome).replace(`${e.operation}: ${e.check}: `, '');
        return `- ${s.service} ${name(e.operation)} ${checkName(e.check)}: ${f(note, 400)}`;
      }),
  );
}

/**
 * One row per service. The last column is the service's state (green, failed, unverified, skipped (not
 * configured)) when the run was judged, never "passed" short of the floor.
 */
export function renderTable(
  summaries: ServiceSummary[],
  states: JudgedService[] = [],
  cell: (text: string) => string = (text) => text,
): string {
  const header = ['service', 'mode', 'operations', 'error statuses', 'tools', 'failed', 'warn', 'inconclusive', 'note'];
  const rows = summaries.map((s) => [
    s.service,
    s.mode,
    s.toolsTotal === undefined ? `${s.operationsExercised}/${s.operationsTotal}` : '-',
    s.toolsTotal === undefined ? `${s.errorsExercised}/${s.errorsDocumented}` : '-',
    s.toolsTotal === undefined ? '-' : `${s.toolsExercised}/${s.toolsTotal}`,
    String(s.failed),
    s.warnings === undefined ? '-' : String(s.warnings),
    s.inconclusive === undefined ? '-' : String(s.inconclusive),
    cell(
      stateNote(
        s,
        states.find((state) => state.service === s.service),
      ),
    ),
  ]);
  return table(header, rows);
}

function stateNote(s: ServiceSummary, state: JudgedService | undefined): string {
  const masking = maskingFrom();
  if (state) {
    const why = state.state === 'green' ? '' : `: ${maskText(state.reasons[0] ?? '', masking, 120)}`;
    return `${STATE_LABELS[state.state]}${why}`;
  }
  if (s.skipped) return `${STATE_LABELS.skipped}: ${maskText(s.skipped, masking, 120)}`;
  return s.failed > 0 || (strictMode() && (s.warnings ?? 0) > 0) ? STATE_LABELS.failed : 'not judged';
}

function markdown(summaries: ServiceSummary[], states: JudgedService[], statesSection: string): string {
  const masking = maskingFrom();
  const m = (text: string) => markdownData(text, masking, 400);
  const exceptions = summaries.flatMap((s) =>
    s.exceptions.map(
      (e) =>
        `| ${m(s.service)} | ${markdownNameData(e.operation, masking)} | ${markdownNameData(e.check, masking)} | ${e.outcome} | ${m(e.note ?? '')} |`,
    ),
  );
  return [
    '# Contract coverage',
    '',
    statesSection,
    '### Coverage',
    '',
    renderTable(summaries, states, m),
    '',
    ...(summaries.some((s) => s.mode === 'live')
      ? [
          `## Verdicts${strictMode() ? ' (CONTRACT_STRICT=1: warnings fail the run)' : ''}`,
          '',
          renderVerdicts(summaries),
          '',
          '### Warnings',
          '',
          verdictLines(summaries, 'warning').join('\n') || 'None.',
          '',
          '### Inconclusive',
          '',
          verdictLines(summaries, 'inconclusive').join('\n') || 'None.',
          '',
          '## Budgets',
          '',
          renderBudgets(summaries),
          '',
          '## Checks',
          '',
          renderChecks(summaries),
          '',
          '## Records checked',
          '',
          renderRecordsChecked(summaries),
          '',
        ]
      : []),
    '## Exceptions',
    '',
    exceptions.length ? '| service | operation | check | outcome | reason |\n| --- | --- | --- | --- | --- |' : 'None.',
    ...exceptions,
    '',
  ].join('\n');
}

const COVERAGE_FILE = /^coverage-[a-z]+(-mcp)?\.json$/;
const EVIDENCE_FILE = /^evidence-[a-z]+(-mcp)?\.json$/;

/** Removes the per-service files of an earlier run, so a report only speaks of this one. */
export async function clearCoverage(dir: string): Promise<void> {
  const files = (await readdir(dir).catch(() => [])).filter((f) => COVERAGE_FILE.test(f) || EVIDENCE_FILE.test(f));
  await Promise.all(files.map((f) => rm(join(dir, f), { force: true })));
}

/** Aggregates every `coverage-<service>.json` in `dir`, prints the table and writes the three reports. */
export async function writeCoverageReports(dir: string, mode: 'mock' | 'live'): Promise<ServiceSummary[]> {
  const files = (await readdir(dir).catch(() => [])).filter((f) => COVERAGE_FILE.test(f)).sort();
  const services: ServiceCoverage[] = [];
  for (const file of files) {
    const data = JSON.parse(await readFile(join(dir, file), 'utf8')) as ServiceCoverage;
    if (data.mode === mode) services.push(data);
  }
  const masking = maskingFrom();
  const summaries = services.map(summarize).map((s) => ({
    ...s,
    ...(s.skipped ? { skipped: maskText(s.skipped, masking) } : {}),
    exceptions: s.exceptions.map((e) => (e.note === undefined ? e : { ...e, note: maskText(e.note, masking) })),
  }));
  // The states, history, HTML page and contract JUnit file (`report/run-report.ts`), then the Markdown and JSON.
  const run = await writeRunReports(dir, mode);
  await writeFile(join(dir, 'coverage.json'), `${JSON.stringify(summaries, null, 2)}\n`);
  await writeFile(join(dir, 'coverage.md'), markdown(summaries, run.services, renderStatesMarkdown(run, masking)));
  const warnings = verdictLines(summaries, 'warning', 'text');
  const live =
    mode === 'live'
      ? `\nVerdicts${strictMode() ? ' (CONTRACT_STRICT=1)' : ''}:\n${renderVerdicts(summaries)}\n` +
        (warnings.length ? `\nWarnings:\n${warnings.join('\n')}\n` : '') +
        `\nBudgets:\n${renderBudgets(summaries)}\n\nChecks:\n${renderChecks(summaries)}\n`
      : '';
  console.log(
    `\nContract coverage (${mode}):\n${renderTable(summaries, run.services)}\n${live}${renderStatesText(run)}` +
      `reports: ${dir}/coverage.{md,json}, coverage-junit.xml, junit.xml, run.json, report.html\n`,
  );
  return summaries;
}
