/** Records one named check's verdict in the coverage recorder and, once per defect, in the evidence ledger. */

import type { ContractOperation } from '../contract-spec/spec.ts';
import type { LiveRun, Seen } from '../engine/run.ts';
import type { Outcome } from '../evidence/coverage.ts';
import type { Severity } from '../evidence/ledger.ts';
import type { Verdicts } from '../evidence/verdicts.ts';

export function recordCheck(
  run: LiveRun,
  operation: ContractOperation,
  verdicts: Verdicts,
  check: string,
  verdict: Exclude<Outcome, 'skipped'>,
  shown: string,
  context: {
    seen?: Pick<Seen, 'method' | 'url' | 'requestBody'> | undefined;
    record?: string | undefined;
    key?: string;
  } = {},
): void {
  const detail = run.scrub(shown);
  if (verdict === 'passed') {
    run.recorder.verdict(operation.id, check, 'passed', detail);
    return;
  }
  const message = `${operation.id}: ${check}: ${detail}`;
  run.recorder.verdict(operation.id, check, verdict, message);
  const severity: Severity = verdict === 'failed' ? 'fail' : verdict;
  verdicts[severity].push(message);
  const reproduction = run.reproductionOf(context.seen);
  run.ledger.add(operation.id, {
    severity,
    check,
    message: detail,
    ...(context.key ? { key: context.key } : {}),
    ...(context.record ? { record: context.record } : {}),
    ...(context.seen ? { url: run.shownUrl(context.seen.url) } : {}),
    ...(reproduction ? { reproduction } : {}),
  });
}
