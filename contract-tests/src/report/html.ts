/**
 * One self-contained HTML page per run (`reports/<target>/report.html`): no script, no external asset (a Content
 * Security Policy that allows nothing but the inline style), every text masked and escaped as data. Changes since
 * the previous run first, then the services with their states, then every operation with its verdict and the last
 * nights as a strip, each failure with its record, URL and one-line reproduction.
 */
import { type ServiceCoverage, toolVerdicts } from '../evidence/coverage.ts';
import { OPERATION_VERDICTS, type OperationEvidence, type ServiceEvidence } from '../evidence/evidence.ts';
import { causeLine, causesOf, changeGroups, stateLines } from './causes.ts';
import type { Change, Night } from './history.ts';
import type { RunFile } from './run-file.ts';
import { type JudgedService, type RunJudgement, STATE_COLOURS, STATE_LABELS, VERDICT_COLOURS } from './states.ts';
import { htmlText, type Masking, maskText } from './text.ts';

export interface HtmlInput {
  judgement: RunJudgement;
  /** The run as `run.json` holds it (masked failures, causes, start times): what the opening section says. */
  run?: Pick<RunFile, 'services' | 'failures' | 'causes' | 'started' | 'changes' | 'strict'>;
  changes: Change[];
  /** Earlier nights of this target, oldest first (the strip shows the last `STRIP_NIGHTS` of them and tonight). */
  nights: Night[];
  tonight: Night;
  evidence: ServiceEvidence[];
  coverage: ServiceCoverage[];
  masking: Masking;
  /** Lines about the history (files left out). */
  notes: string[];
  strict: boolean;
}

export const STRIP_NIGHTS = 14;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1f2328;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d0d7de}
h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0;width:100%}td,th{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
details{margin:6px 0}summary{cursor:pointer;font-weight:600}.cause{margin:3px 0}.cause b{color:#cf222e}
th{background:#f6f8fa;overflow-wrap:normal;white-space:nowrap}.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600;white-space:nowrap}
code,pre{font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
.strip{white-space:nowrap}.cell{display:inline-block;width:10px;height:14px;margin-right:1px;border-radius:2px;background:#eaeef2}
.muted{color:#656d76}.changes li{margin:2px 0}.failure{margin:4px 0;padding:4px 6px;border-left:3px solid ${VERDICT_COLOURS.failed};background:#fff5f5}
${Object.entries(STATE_COLOURS)
  .map(([state, colour]) => `.s-${state}{background:${colour}}`)
  .join('')}
${Object.entries(VERDICT_COLOURS)
  .map(([verdict, colour]) => `.v-${verdict}{background:${colour}}`)
  .join('')}
`;

export function renderHtml(input: HtmlInput): string {
  const { judgement, masking } = input;
  const t = (text: unknown) => htmlText(maskText(text, masking));
  const runState =
    judgement.exitCode === 0 ? 'green' : judgement.exitCode === 1 ? ('failed' as const) : ('unverified' as const);
  const strip = stripOf(input);
  const parts = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>Contract run (${t(judgement.target)}): ${t(STATE_LABELS[runState])}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>Contract run (${t(judgement.target)}) <span class="badge s-${runState}" id="run-state" data-state="${runState}">${t(STATE_LABELS[runState])}</span></h1>`,
    `<p id="headline">${t(judgement.headline)}</p>`,
    renderCauseFirst(input, t),
    `<p class="muted">Written ${t(input.tonight.at)}. Exit codes: 0 green, 1 failed, 3 unverified (no failure, but short of a floor or a required service not run).${input.strict ? ' CONTRACT_STRICT=1: warnings and fields gone since last night are failures.' : ''}</p>`,
    renderChanges(input, t),
    renderServices(judgement.services, input.evidence, t),
    // Every operation of every service, folded: the causes above say what matters.
    ...input.evidence.map((e) => renderEvidence(e, judgement.services, strip, t)),
    ...input.coverage
      .filter((c) => !input.evidence.some((e) => e.service === c.service))
      .map((c) => renderCoverage(c, judgement.services, t)),
    renderLegend(),
    '</body></html>',
  ];
  return `${parts.join('\n')}\n`;
}

type Text = (text: unknown) => string;

function badge(kind: 's' | 'v', value: string, label: string, t: Text): string {
  return `<span class="badge ${kind}-${value}" data-${kind === 's' ? 'state' : 'verdict'}="${t(value)}">${t(label)}</span>`;
}

/** The opening: the state of each service, one line per distinct cause, the changes grouped (`causes.ts`). */
function renderCauseFirst(input: HtmlInput, t: Text): string {
  const run = input.run ?? {
    services: input.judgement.services,
    failures: [],
    changes: input.changes,
    strict: input.strict,
  };
  const causes = run.causes ?? causesOf(run);
  const groups = changeGroups(run.changes, causes, run);
  const lines = stateLines(run);
  const states = run.services
    .map(
      (s, i) =>
        `<li data-service="${t(s.service)}">${badge('s', s.state, STATE_LABELS[s.state], t)} ${t(lines[i])}</li>`,
    )
    .join('');
  const causeItems = causes.length
    ? causes
        .map(
          (c) =>
            `<li class="cause" data-service="${t(c.service)}"${c.refused ? ` data-refused="${c.refused}"` : ''}>${t(causeLine(c))}</li>`,
        )
        .join('')
    : '<li>None: every service that ran is green.</li>';
  const changeItems = groups.length
    ? groups
        .map(
          (g) =>
            `<li>${g.change?.kind === 'field-gone' ? (input.strict ? 'failed: ' : 'warning: ') : ''}${t(g.line)}</li>`,
        )
        .join('')
    : '<li>No change since the previous run.</li>';
  return `<section id="cause-first"><h2>State of each service</h2><ul id="states">${states}</ul><h2>Causes</h2><ul id="causes">${causeItems}</ul><h2>Since last night</h2><ul id="change-groups">${changeItems}</ul></section>`;
}

function renderChanges(input: HtmlInput, t: Text): string {
  const previous = input.nights.at(-1);
  const body =
    input.changes.length > 0
      ? `<details><summary>All ${input.changes.length} changes since the previous run, one per operation</summary><ul class="changes">${input.changes
          .map(
            (c) =>
              `<li data-kind="${t(c.kind)}"${c.field ? ` data-field="${t(c.field)}"` : ''}>${c.kind === 'field-gone' ? (input.strict ? 'failed: ' : 'warning: ') : ''}${t(c.message)}</li>`,
          )
          .join('')}</ul></details>`
      : previous
        ? `<p>No change since the previous run (${t(previous.at)}).</p>`
        : '<p>No earlier run in the history: nothing to compare with.</p>';
  const notes = input.notes.length ? `<p class="muted">${input.notes.map(t).join('<br>')}</p>` : '';
  return `<section id="changes"><h2>Changes since the previous run</h2>${body}${notes}</section>`;
}

function renderServices(services: JudgedService[], evidence: ServiceEvidence[], t: Text): string {
  const rows = services.map((s) => {
    const e = evidence.find((x) => x.service === s.service);
    const counts = OPERATION_VERDICTS.map((v) => `${v} ${s.counts[v]}`).join(', ');
    const budget = e?.budget
      ? `requests ${e.budget.requests}, 429s ${e.budget.tooManyRequests}${e.budget.scanBudget !== undefined ? `, scans ${e.budget.scans ?? 0}/${e.budget.scanBudget}` : ''}`
      : '';
    return `<tr data-service="${t(s.service)}"><td>${t(s.service)}${s.required ? ' <span class="muted">(required)</span>' : ''}</td><td>${badge('s', s.state, STATE_LABELS[s.state], t)}</td><td>${s.verified} of ${s.total}</td><td>${t(counts)}</td><td>${s.reasons.slice(0, 3).map(t).join('<br>')}${s.reasons.length > 3 ? `<details><summary>${s.reasons.length - 3} more</summary>${s.reasons.slice(3).map(t).join('<br>')}</details>` : ''}</td><td>${t(budget)}${e?.seed ? `<br>seed <code>${t(e.seed)}</code>` : ''}</td></tr>`;
  });
  return `<section id="services"><h2>Services</h2><table><tr><th>service</th><th>state</th><th>verified</th><th>verdicts</th><th>why</th><th>budget, seed</th></tr>${rows.join('')}</table></section>`;
}

type Strip = (service: string, operation: string) => string;

function stripOf(input: HtmlInput): Strip {
  const nights = [...input.nights.slice(-STRIP_NIGHTS), input.tonight];
  return (service, operation) =>
    `<span class="strip">${nights
      .map((night) => {
        const verdict = night.services.get(service)?.operations.get(operation)?.verdict;
        const label = `${night.at.slice(0, 16).replace('T', ' ')}: ${verdict ?? 'not in that run'}`;
        return `<span class="cell${verdict ? ` v-${verdict}` : ''}" title="${htmlText(label)}"></span>`;
      })
      .join('')}</span>`;
}

function renderOperation(service: string, op: OperationEvidence, strip: Strip, t: Text): string {
  const notes = [
    ...(op.reason ? [t(op.reason)] : []),
    ...op.warnings.map((w) => `warning: ${t(w)}`),
    ...op.failures.map(
      (f) =>
        `<div class="failure"><b>${t(f.check)}</b>: ${t(f.message)}${f.record ? `<br>record: <code>${t(f.record)}</code>` : ''}${f.url ? `<br>URL: <code>${t(f.url)}</code>` : ''}${f.reproduction ? `<br>reproduce: <code class="repro">${t(f.reproduction)}</code>` : ''}</div>`,
    ),
  ];
  return `<tr data-operation="${t(op.operation)}"><td>${t(op.operation)}<br><span class="muted">${t(op.method.toUpperCase())} ${t(op.path)} · ${t(op.safety)}</span></td><td>${badge('v', op.verdict, op.verdict, t)}</td><td>${strip(service, op.operation)}</td><td>${op.requests}</td><td>${op.records}</td><td>${notes.join('<br>')}</td></tr>`;
}

function renderEvidence(e: ServiceEvidence, services: JudgedService[], strip: Strip, t: Text): string {
  const state = services.find((s) => s.service === e.service)?.state ?? 'skipped';
  // Failures first, then every other operation by name.
  const rank = (op: OperationEvidence) => (op.verdict === 'failed' ? 0 : 1);
  const operations = [...e.operations].sort((a, b) => rank(a) - rank(b) || a.operation.localeCompare(b.operation));
  const header = `<h2 id="service-${t(e.service)}">${t(e.service)} ${badge('s', state, STATE_LABELS[state], t)}</h2>`;
  if (e.skipped !== undefined) return `<section>${header}<p>Not run: ${t(e.skipped)}</p></section>`;
  const counts = OPERATION_VERDICTS.map((v) => `${v} ${e.operations.filter((op) => op.verdict === v).length}`).join(
    ', ',
  );
  return `<section>${header}<p class="muted">Started ${t(e.startedAt)}, seed <code>${t(e.seed)}</code> (replay with CONTRACT_SEED).</p><details><summary>Every operation (${t(counts)})</summary><table><colgroup><col style="width:24%"><col style="width:8%"><col style="width:14%"><col style="width:6%"><col style="width:6%"><col></colgroup><tr><th>operation</th><th>verdict</th><th>last nights → tonight</th><th>requests</th><th>records</th><th>why, failures</th></tr>${operations.map((op) => renderOperation(e.service, op, strip, t)).join('')}</table></details></section>`;
}

function renderCoverage(c: ServiceCoverage, services: JudgedService[], t: Text): string {
  const state = services.find((s) => s.service === c.service)?.state ?? 'skipped';
  const header = `<h2 id="service-${t(c.service)}">${t(c.service)} ${badge('s', state, STATE_LABELS[state], t)}</h2>`;
  if (c.skipped !== undefined) return `<section>${header}<p>Not run: ${t(c.skipped)}</p></section>`;
  const exceptions = c.entries.filter((e) => e.outcome !== 'passed');
  const rows = exceptions
    .map(
      (e) =>
        `<tr><td>${t(e.operation)}</td><td>${t(e.check)}</td><td>${t(e.outcome)}</td><td>${t(e.note ?? '')}</td></tr>`,
    )
    .join('');
  const tools =
    c.kind === 'tools'
      ? `<details><summary>Every tool (verified only when called and its answer checked)</summary><table><tr><th>tool</th><th>verdict</th><th>why, warnings</th></tr>${[
          ...toolVerdicts(c),
        ]
          .map(
            ([tool, v]) =>
              `<tr data-tool="${t(tool)}"><td>${t(tool)}</td><td>${badge('v', v.verdict, v.verdict, t)}</td><td>${[v.reason ?? '', ...v.warnings.map((w) => `warning: ${w}`)].filter(Boolean).map(t).join('<br>')}</td></tr>`,
          )
          .join('')}</table></details>`
      : '';
  return `<section>${header}<p class="muted">No evidence file: judged from its coverage (${c.operations.length} ${c.kind === 'tools' ? 'tools' : 'operations'}, ${c.entries.length} checks).</p>${tools}${exceptions.length ? `<details><summary>Checks that did not pass (${exceptions.length})</summary><table><tr><th>operation</th><th>check</th><th>outcome</th><th>note</th></tr>${rows}</table></details>` : '<p>Every check passed.</p>'}</section>`;
}

function renderLegend(): string {
  return `<section id="legend"><h2>Legend</h2><p>${OPERATION_VERDICTS.map((v) => `<span class="cell v-${v}"></span> ${v}`).join(' &nbsp; ')}</p><p class="muted">verified: a valid request got a documented answer that validated; failed: a promise of the contract is broken; warned: the server is more lenient than the spec, or rejected a request the suite constructed; inconclusive: the request rested on a guess, or a 429 outlasted the budget; not-run: never sent, with the reason.</p></section>`;
}
