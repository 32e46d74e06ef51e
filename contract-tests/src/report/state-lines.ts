/**
 * The lines that say a run's states, written once for every report that shows them: the Markdown of `coverage.md`
 * and of the nightly's issue body, and the printed summary. One line per change since the previous run, one table
 * row per service. The caller passes how text is made safe for its report (masked, escaped as data).
 *
 * Imports nothing that needs a build (the nightly loads it after steps that may have failed).
 */
import type { Change } from './history.ts';
import { type RunJudgement, STATE_LABELS, STATE_MARKS } from './states.ts';

type Text = (text: string) => string;

/** What a run file (`run.json`) says of its changes: they and whether CONTRACT_STRICT was set. */
interface RunChanges {
  changes: readonly Change[];
  strict: boolean;
}

/** What a change is called in front of its message: a field gone fails under CONTRACT_STRICT, else warns. */
export function changeLabel(change: Change, strict: boolean): string | undefined {
  if (change.kind !== 'field-gone') return undefined;
  return strict ? 'failed' : 'warning';
}

/** One Markdown list line per change (its label in bold), or `none` when nothing changed. */
export function markdownChanges(run: RunChanges, text: Text, none: string): string[] {
  if (run.changes.length === 0) return [none];
  return run.changes.map((change) => {
    const label = changeLabel(change, run.strict);
    return `- ${label ? `**${label}**: ` : ''}${text(change.message)}`;
  });
}

/** One printed line per change, indented under `Changes since the previous run:`. */
export function textChanges(run: RunChanges): string[] {
  return run.changes.map((change) => {
    const label = changeLabel(change, run.strict);
    return `  - ${label ? `${label}: ` : ''}${change.message}`;
  });
}

/** The Markdown table of services: head, then one row each with its state and its first `reasons` reasons. */
export function markdownStateTable(run: Pick<RunJudgement, 'services'>, text: Text, reasons: number): string[] {
  return [
    '| service | state | operations verified | why |',
    '| --- | --- | --- | --- |',
    ...run.services.map(
      (s) =>
        `| ${text(s.service)}${s.required ? ' (required)' : ''} | ${STATE_MARKS[s.state]} ${STATE_LABELS[s.state]} | ${s.verified} of ${s.total} | ${s.reasons.slice(0, reasons).map(text).join('<br>') || '-'} |`,
    ),
  ];
}
