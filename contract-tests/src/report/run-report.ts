/**
 * The reports of one contract run of one target, written by the global teardown after every test file wrote its
 * coverage and evidence: the states (`run.json`: per service green / failed / unverified / skipped, the exit code,
 * the changes since the previous run), the history entry, the HTML page (`report.html`), the contract JUnit file
 * (`coverage-junit.xml`) and the state section of `coverage.md`. `run/contract-run.ts` turns `run.json` into the
 * exit code of `pnpm contract`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strictMode } from '../settings.ts';
import { causesOf, markdownCauseFirst } from './causes.ts';
import {
  appendNight,
  type Change,
  compareNights,
  historyDir,
  historyWarnings,
  nightFrom,
  nightsKept,
  readNights,
} from './history.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import type { Cause, RunFailure, RunFile } from './run-file.ts';
import { markdownStateTable, textChanges } from './state-lines.ts';
import { judgeRun, type RunJudgement, readRunFiles, requiredServices, STATE_LABELS } from './states.ts';
import { type Masking, markdownData, maskingFrom, maskText } from './text.ts';

export const MAX_FAILURES = 100;

export const RUN_FILE = 'run.json';
export const HTML_FILE = 'report.html';

/** Judges the run in `dir`, compares it with the previous one, appends it to the history and writes its reports. */
export async function writeRunReports(
  dir: string,
  target: 'mock' | 'live',
  env: Record<string, string | undefined> = process.env,
  now = new Date(),
): Promise<RunFile> {
  const { evidence, coverage } = await readRunFiles(dir, target);
  const required = requiredServices(env);
  const strict = strictMode(env);
  const masking = maskingFrom(env);
  const first = judgeRun(target, evidence, coverage, { required });
  const tonight = nightFrom(target, evidence, first.services, now);
  const history = historyDir(env);
  const keep = nightsKept(env);
  const { nights, notes } = await readNights(history, target, keep);
  const changes = compareNights(nights.at(-1), tonight);
  const judgement = judgeRun(target, evidence, coverage, {
    required,
    strict,
    historyWarnings: historyWarnings(changes),
  });
  const file = await appendNight(history, tonight, keep);
  const html = join(dir, HTML_FILE);
  const failures = evidence.flatMap((e) =>
    e.operations.flatMap((op) =>
      op.failures.map((f) => ({
        service: e.service,
        operation: op.operation,
        check: maskText(f.check, masking, 100),
        message: maskText(f.message, masking, 500),
        ...(f.record ? { record: maskText(f.record, masking, 200) } : {}),
        ...(f.url ? { url: maskText(f.url, masking, 500) } : {}),
        ...(f.reproduction ? { reproduction: maskText(f.reproduction, masking, 800) } : {}),
      })),
    ),
  );
  const services = judgement.services.map((s) => ({ ...s, reasons: s.reasons.map((r) => maskText(r, masking)) }));
  const run: RunFile = {
    ...judgement,
    services,
    changes: changes.map((c) => ({ ...c, message: maskText(c.message, masking) })),
    html,
    strict,
    required: [...required],
    history: { dir: history, file, notes },
    failures: failures.slice(0, MAX_FAILURES),
    // Counted on every failure, not only the first MAX_FAILURES the file lists.
    causes: causesOf({ services, failures }),
    source: evidence.length > 0 ? 'evidence' : coverage.length > 0 ? 'coverage' : 'none',
    at: now.toISOString(),
    started: evidence.map((e) => ({ service: e.service, at: maskText(e.startedAt, masking, 40) })),
  };
  await writeFile(
    html,
    renderHtml({ judgement, run, changes, nights, tonight, evidence, coverage, masking, notes, strict }),
  );
  await writeFile(join(dir, 'coverage-junit.xml'), renderJunit(judgement, evidence, coverage, masking, strict));
  await writeFile(join(dir, RUN_FILE), `${JSON.stringify(run, null, 2)}\n`);
  return run;
}

/** Reads `run.json` of a target folder; undefined when the run wrote none. */
export async function readRunFile(dir: string): Promise<RunFile | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, RUN_FILE), 'utf8')) as RunFile;
  } catch {
    return undefined;
  }
}

/**
 * The state section of a Markdown report (coverage.md, the nightly's issue body): the changes first, then one row
 * per service with its state. Every text is masked and escaped as data.
 */
export function renderStatesMarkdown(run: RunFile, masking: Masking = maskingFrom()): string {
  const m = (text: unknown) => markdownData(text, masking, 400);
  return [
    `**${m(run.headline)}**`,
    '',
    ...markdownCauseFirst(run, m),
    '### States',
    '',
    ...markdownStateTable(run, m, 5),
    '',
  ].join('\n');
}

/** The printed summary of a run: headline, changes, states, where the page is. */
export function renderStatesText(run: RunFile): string {
  return [
    '',
    run.headline,
    ...(run.source === 'coverage' ? ['(no evidence files: states judged from the coverage files)'] : []),
    ...(run.changes.length ? ['Changes since the previous run:', ...textChanges(run)] : []),
    ...run.services.map(
      (s) =>
        `  ${s.service.padEnd(14)} ${STATE_LABELS[s.state].padEnd(24)} ${`${s.verified}/${s.total}`.padEnd(9)} ${s.reasons[0] ?? ''}`,
    ),
    `report: ${run.html}`,
    '',
  ].join('\n');
}

export type { Cause, RunFailure, RunFile } from './run-file.ts';
