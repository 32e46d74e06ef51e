/**
 * The nightly's summary (`../run/nightly.ts` → `reports/nightly.md`, the tracking issue's body): one row per step,
 * the contract steps with their state (green / failed / unverified / skipped (not configured)) read from the run's
 * `run.json`, never "ok" for a run that verified nothing; then the changes since the previous night, the states per
 * service, the link to each run's HTML page, and the failing checks. Every text that came from a server was masked
 * when the run wrote it and is escaped here as Markdown data.
 *
 * Imports nothing that needs a build: the nightly loads it after steps that may have failed.
 */
import type { ServiceState } from '../evidence/evidence.ts';
import { markdownCauseFirst } from './causes.ts';
import { markdownName, markdownText } from './escape.ts';
import type { RunFile } from './run-report.ts';
import { markdownStateTable } from './state-lines.ts';
import { STATE_LABELS, STATE_MARKS } from './states.ts';

export interface StepRun {
  name: string;
  code: number;
  seconds: number;
  /** Contract steps: the run's judgement (`run.json`), when it wrote one. */
  run?: RunFile | undefined;
  /** Contract steps: the target, so a missing judgement is reported as such. */
  target?: 'mock' | 'live';
}

export interface StepResult {
  name: string;
  /** What the summary says: `ok`, `FAILED (exit n)`, or a contract state. */
  label: string;
  /** Whether the step makes the nightly red. */
  failing: boolean;
  state?: ServiceState;
  seconds: number;
}

/** A contract run in which no service ran and none was required: not configured, not a failure, never "ok". */
function notConfigured(run: RunFile): boolean {
  return run.services.every((s) => s.state === 'skipped');
}

export function stepResult(step: StepRun): StepResult {
  const base = { name: step.name, seconds: step.seconds };
  if (!step.target) {
    return { ...base, label: step.code === 0 ? 'ok' : `FAILED (exit ${step.code})`, failing: step.code !== 0 };
  }
  const run = step.run;
  if (!run) {
    return { ...base, label: `FAILED: no judgement written (exit ${step.code})`, failing: true, state: 'failed' };
  }
  if (notConfigured(run)) {
    const names = run.services.map((s) => s.service).join(', ');
    return {
      ...base,
      label: `${STATE_MARKS.skipped} ${STATE_LABELS.skipped}: no service configured${names ? ` (${markdownText(names)})` : ''}, nothing verified`,
      failing: false,
      state: 'skipped',
    };
  }
  // The package script exits with the judgement; through turbo any non-zero code arrives as a failure.
  const state: ServiceState =
    step.code === 0 && run.exitCode === 0 ? 'green' : run.exitCode === 3 && step.code !== 0 ? 'unverified' : 'failed';
  const verified = run.services.reduce((n, s) => n + s.verified, 0);
  const total = run.services.reduce((n, s) => n + s.total, 0);
  return {
    ...base,
    label: `${STATE_MARKS[state]} ${STATE_LABELS[state]}: ${verified} of ${total} operations verified (exit ${run.exitCode})`,
    failing: state !== 'green',
    state,
  };
}

/** The state section of one contract run: headline, link to its page, changes, services. */
export function runSection(title: string, run: RunFile | undefined, htmlLink: string | undefined): string {
  if (!run) return `\n## ${title}\n\nNo judgement written (the run stopped before its teardown).\n`;
  const m = (text: string) => markdownText(text);
  const failures = (run.failures ?? []).map((f) =>
    [
      `- ${m(f.service)} ${markdownName(f.operation)} ${m(f.check)}: ${m(f.message)}`,
      f.record ? ` · record ${markdownName(f.record)}` : '',
      f.url ? ` · URL ${markdownName(f.url)}` : '',
      f.reproduction ? `\n  reproduce: ${markdownName(f.reproduction)}` : '',
    ].join(''),
  );
  return [
    '',
    `## ${title}`,
    '',
    `**${m(run.headline)}**${htmlLink ? ` · HTML report: ${htmlLink}` : ''}`,
    '',
    // Cause first: states, one line per cause, grouped changes; the tables and every failure folded below.
    ...markdownCauseFirst(run, m),
    '<details><summary>States (table)</summary>',
    '',
    ...markdownStateTable(run, m, 3),
    '',
    '</details>',
    '',
    ...(failures.length
      ? [
          `<details><summary>Failures, one per operation (${failures.length})</summary>`,
          '',
          ...failures,
          '',
          '</details>',
          '',
        ]
      : []),
  ].join('\n');
}

/** The step table: the first thing the tracking issue shows. */
export function stepTable(results: StepResult[]): string {
  return [
    '| step | result | seconds |',
    '| --- | --- | --- |',
    ...results.map((r) => `| ${r.name} | ${r.label} | ${r.seconds} |`),
  ].join('\n');
}

/** The nightly's exit code: 1 when any step is failing (a contract run not configured is not). */
export function nightlyExitCode(results: StepResult[]): number {
  return results.some((r) => r.failing) ? 1 : 0;
}
