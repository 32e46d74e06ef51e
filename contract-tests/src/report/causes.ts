/**
 * Cause first: what a report opens with, the same in `report.html` and `nightly.md`. One line per service with its
 * state, then one line per distinct cause (a refused credential once, however many operations it stopped, with what
 * to do), then the changes since last night grouped per service ("78 verified last night: 20 failed and 58 not run
 * tonight, all after a 401 at 02:14"). The full lists stay in the report, folded below.
 *
 * Imports nothing that needs a build (the nightly loads it after steps that may have failed).
 */
import type { Change } from './history.ts';
import type { Cause, RunFile } from './run-file.ts';
import { changeLabel, markdownChanges } from './state-lines.ts';
import { STATE_LABELS, STATE_MARKS } from './states.ts';

/** Where each service's credentials are configured: what a refused one asks the operator to check. */
const CREDENTIALS = new Map<string, string>([
  ['store', 'STORE_LOGIN + STORE_AUTH_TOKEN (or STORE_ACCESS_TOKEN)'],
  ['store-mcp', 'STORE_LOGIN + STORE_AUTH_TOKEN (sent to STORE_MCP_URL)'],
  ['trust', 'ENTROPY0_API_KEY'],
]);

type RunLike = Pick<RunFile, 'services' | 'failures'> & { started?: RunFile['started']; causes?: Cause[] };

/** A refusal of the run's credentials in a line of text: its status. */
function refusal(text: string): number | undefined {
  const status = /\b(401|403)\b/.exec(text)?.[1];
  if (!status) return undefined;
  return /credential|unauthori[sz]ed|forbidden|refused|token/i.test(text) ? Number(status) : undefined;
}

/** A failure message without what is particular to one request (its label, record ids), to group equal defects. */
function general(message: string): string {
  return message
    .replace(/^(?:required|all|page \d+|[a-z]+, )?[^:]{0,60}?id=[^:]{1,40}: /i, '')
    .replace(/\bid=[^\s,;)]+/g, 'id=…')
    .slice(0, 300);
}

/** Every distinct cause of the run, per service in order: refused credentials first. */
export function causesOf(run: RunLike): Cause[] {
  const causes = new Map<string, Cause>();
  const add = (key: string, cause: Omit<Cause, 'operations'>, operation?: string) => {
    const known = causes.get(key) ?? { ...cause, operations: [] };
    if (operation && !known.operations.includes(operation)) known.operations.push(operation);
    causes.set(key, known);
  };
  const refusedCause = (service: string, status: number) => ({
    service,
    refused: status,
    text: `HTTP ${status}: the service refused the run's credentials`,
    todo: CREDENTIALS.has(service)
      ? `check ${CREDENTIALS.get(service)}: revoked, expired or mistyped; renew it and run again`
      : 'check the credentials configured for it, then run again',
  });
  for (const service of run.services) {
    if (service.state === 'green' || service.state === 'skipped') continue;
    const failures = run.failures.filter((f) => f.service === service.service);
    if (failures.length > 0) {
      for (const f of failures) {
        const status = refusal(f.message);
        if (status) add(`${service.service} refused ${status}`, refusedCause(service.service, status), f.operation);
        else {
          const text = `${f.check}: ${general(f.message)}`;
          add(`${service.service} ${text}`, { service: service.service, text }, f.operation);
        }
      }
      continue;
    }
    // No failure recorded (a tool server, a floor not reached, CONTRACT_STRICT): its reasons, each cause once.
    for (const reason of service.reasons) {
      const status = refusal(reason);
      if (status) add(`${service.service} refused ${status}`, refusedCause(service.service, status));
      else add(`${service.service} ${general(reason)}`, { service: service.service, text: general(reason) });
    }
  }
  return [...causes.values()].sort(
    (a, b) =>
      run.services.findIndex((s) => s.service === a.service) - run.services.findIndex((s) => s.service === b.service) ||
      Number(b.refused !== undefined) - Number(a.refused !== undefined),
  );
}

/** One line per service: its state and how much it verified. */
export function stateLines(run: RunLike): string[] {
  return run.services.map(
    (s) =>
      `${s.service}${s.required ? ' (required)' : ''}: ${STATE_LABELS[s.state]}, ${s.verified} of ${s.total} verified`,
  );
}

/** One line per cause: the service, what happened, on how many operations, what to do. */
export function causeLine(cause: Cause): string {
  const where =
    cause.operations.length > 1
      ? ` (${cause.operations.length} operations: ${cause.operations.slice(0, 3).join(', ')}${cause.operations.length > 3 ? ', …' : ''})`
      : cause.operations.length === 1
        ? ` (${cause.operations[0]})`
        : '';
  return `${cause.service}: ${cause.text}${where}${cause.todo ? `. To do: ${cause.todo}` : ''}`;
}

/** `HH:MM UTC` of an ISO time. */
function clock(iso: string | undefined): string | undefined {
  return iso && /T\d{2}:\d{2}/.test(iso) ? `${iso.slice(11, 16)} UTC` : undefined;
}

/**
 * The changes since last night, grouped: per service, the operations verified last night and not tonight, counted
 * by tonight's verdict, and the cause they followed when one refused credential explains them; other changes (a
 * field gone, records gone) one line each.
 */
export function changeGroups(
  changes: readonly Change[],
  causes: readonly Cause[],
  run: RunLike,
): { line: string; change?: Change }[] {
  const lines: { line: string; change?: Change }[] = [];
  const services = [...new Set(changes.map((c) => c.service))];
  for (const service of services) {
    const lost = new Map<string, string[]>();
    for (const change of changes.filter((c) => c.service === service)) {
      if (change.kind === 'no-longer-verified') {
        const now = change.tonight ?? 'not verified';
        lost.set(now, [...(lost.get(now) ?? []), ...change.operations]);
      } else if (change.kind === 'not-run-any-more') {
        lost.set('not-run', [...(lost.get('not-run') ?? []), ...change.operations]);
      }
    }
    const total = [...lost.values()].reduce((n, ops) => n + ops.length, 0);
    if (total > 0) {
      const parts = [...lost].map(([verdict, ops]) => `${ops.length} ${verdict === 'not-run' ? 'not run' : verdict}`);
      const refused = causes.find((c) => c.service === service && c.refused !== undefined);
      const failed = lost.get('failed') ?? [];
      const explained =
        refused && (refused.operations.length === 0 || failed.every((op) => refused.operations.includes(op)));
      const at = clock(run.started?.find((s) => s.service === service)?.at);
      const after = refused ? `, ${explained ? 'all ' : ''}after a ${refused.refused}${at ? ` at ${at}` : ''}` : '';
      lines.push({ line: `${service}: ${total} verified last night: ${parts.join(' and ')} tonight${after}` });
    }
    for (const change of changes.filter(
      (c) => c.service === service && c.kind !== 'no-longer-verified' && c.kind !== 'not-run-any-more',
    )) {
      lines.push({ line: change.message, change });
    }
  }
  return lines;
}

/**
 * The opening of a Markdown report (coverage.md, the nightly's issue body): the state of each service, one line per
 * cause, the grouped changes, and every change folded in a `<details>` below. `text` makes a text safe for the
 * report (masked, escaped as Markdown data).
 */
export function markdownCauseFirst(run: RunLike & Pick<RunFile, 'changes' | 'strict'>, text: (t: string) => string) {
  const causes = run.causes ?? causesOf(run);
  const groups = changeGroups(run.changes, causes, run);
  const label = (change: Change | undefined) => {
    const l = change ? changeLabel(change, run.strict) : undefined;
    return l ? `**${l}**: ` : '';
  };
  return [
    '**State of each service**',
    '',
    ...run.services.map((s, i) => `- ${STATE_MARKS[s.state]} ${text(stateLines(run)[i] ?? '')}`),
    '',
    '**Causes**',
    '',
    ...(causes.length ? causes.map((c) => `- ${text(causeLine(c))}`) : ['- None: every service that ran is green.']),
    '',
    '**Changes since last night**',
    '',
    ...(groups.length
      ? groups.map((g) => `- ${label(g.change)}${text(g.line)}`)
      : ['- No change since the previous night (or none in the history).']),
    '',
    ...(run.changes.length > groups.length
      ? [
          `<details><summary>All ${run.changes.length} changes, one per operation</summary>`,
          '',
          ...markdownChanges(run, text, ''),
          '',
          '</details>',
          '',
        ]
      : []),
  ];
}
