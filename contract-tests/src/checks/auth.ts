/**
 * The auth check (ignored_auth) of a secured read: the baseline request again without its credentials. 401/403 is
 * the promise; an answer without credentials is a fail (a security finding), as is a 5xx or a hung request; any
 * other 4xx warns (inconclusive when the request rested on a guess or was rate limited).
 */
import type { ContractOperation } from '../contract-spec/spec.ts';
import type { LiveRun } from '../engine/run.ts';
import type { CallInput } from '../engine/values.ts';
import { type Basis, noVerdicts, type Verdicts } from '../evidence/verdicts.ts';
import { recordCheck } from './findings.ts';

export const AUTH_CHECK = 'ignored_auth';

export async function authCheck(
  run: LiveRun,
  operation: ContractOperation,
  input: CallInput,
  basis: Basis,
): Promise<Verdicts> {
  const verdicts = noVerdicts();
  const answer = await run.raw(operation, input, false);
  const note = (text: string) => `a request without credentials ${text}`;
  const record = (verdict: 'passed' | 'failed' | 'warning' | 'inconclusive', detail: string, key?: string) =>
    recordCheck(run, operation, verdicts, AUTH_CHECK, verdict, detail, {
      seen: answer.seen,
      record: basis.record,
      ...(key ? { key } : {}),
    });
  if (answer.notSent) run.recorder.skip(operation.id, AUTH_CHECK, answer.notSent);
  else if (answer.status === undefined) {
    record(
      'failed',
      note(`was not answered: ${answer.problem}`),
      /no answer within/.test(answer.problem ?? '') ? 'hung' : undefined,
    );
  } else if (answer.removed === 0) {
    run.recorder.skip(operation.id, AUTH_CHECK, 'the client sent no credential header to leave out');
  } else if (answer.status === 401 || answer.status === 403) {
    record('passed', String(answer.status));
  } else if (answer.status < 300 || answer.status >= 500) {
    record(
      'failed',
      note(`got ${answer.status}${answer.status < 300 ? ' (SECURITY FINDING: answered without credentials)' : ''}`),
    );
  } else {
    const text = note(`got ${answer.status}, not 401/403`);
    if (basis.guess || answer.status === 429) record('inconclusive', basis.guess ? `${text}; ${basis.guess}` : text);
    else record('warning', text);
  }
  return verdicts;
}
