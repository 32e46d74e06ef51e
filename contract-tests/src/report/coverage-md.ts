/**
 * The coverage reports of one run, written by the global teardown from every `coverage-<service>.json` the test
 * files recorded (`../evidence/coverage.ts`): the printed table, `coverage.md` and `coverage.json`, after the run's
 * states, history, HTML page and contract JUnit file (`run-report.ts`). Every text from a server is masked and
 * escaped as data.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  COVERAGE_FILE,
  OUTCOMES,
  type Outcome,
  type ServiceCoverage,
  type ServiceSummary,
  summarize,
} from '../evidence/coverage.ts';
import { strictMode } from '../settings.ts';
import { renderStatesMarkdown, renderStatesText, writeRunReports } from './run-report.ts';
import { type JudgedService, STATE_LABELS } from './states.ts';
import { markdownData, markdownNameData, maskingFrom, maskText } from './text.ts';

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
