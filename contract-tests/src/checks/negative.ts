/**
 * The negative check (negative_data_rejection) of a read: a request that breaks the spec's input rules, sent past
 * the client's validator. A 4xx is the expected rejection; acceptance is a warning (more lenient than the spec,
 * which the contract allows), inconclusive on an x-provisional operation or a 429; a 5xx or a hung request fails.
 */
import type { ContractOperation } from '../contract-spec/spec.ts';
import type { LiveRun } from '../engine/run.ts';
import { breakInput, type CallInput, sampleInput } from '../engine/values.ts';
import { noVerdicts, type Verdicts } from '../evidence/verdicts.ts';
import { recordCheck } from './findings.ts';

export const NEGATIVE_CHECK = 'negative_data_rejection';

/** The spec-breaking request a read's negative check sends, or undefined when no input of it can break the spec. */
export function negativeRequest(
  run: LiveRun,
  operation: ContractOperation,
  path: Record<string, unknown>,
): { input: CallInput; what: string } | undefined {
  const broken = breakInput(run.spec.document, operation);
  const brokenPath = operation.parameters.find(
    (p) => p.in === 'path' && ['integer', 'number'].includes(String(p.schema.type)),
  );
  const sent = broken?.field
    ? ` (sent ${broken.field}${broken.sent === undefined ? ' left out' : `=${JSON.stringify(broken.sent)}`})`
    : '';
  if (broken?.what.startsWith('query.') || broken?.what.startsWith('required query'))
    return { input: { ...broken.input, path }, what: `${broken.what}${sent}` };
  if (brokenPath)
    return {
      input: {
        ...sampleInput(run.spec.document, operation, 'required'),
        path: { ...path, [brokenPath.name]: 'not-a-number' },
      },
      what: `path.${brokenPath.name} not a number (sent "not-a-number")`,
    };
  if (broken?.what === 'body of the wrong type') return { input: broken.input, what: `${broken.what}${sent}` };
  return undefined;
}

export async function negativeCheck(
  run: LiveRun,
  operation: ContractOperation,
  negative: { input: CallInput; what: string },
): Promise<Verdicts> {
  const verdicts = noVerdicts();
  const answer = await run.raw(operation, negative.input, true);
  const quota = run.profile.budget.quota;
  const record = (verdict: 'passed' | 'failed' | 'warning' | 'inconclusive', detail: string, key?: string) =>
    recordCheck(run, operation, verdicts, NEGATIVE_CHECK, verdict, detail, {
      seen: answer.seen,
      ...(key ? { key } : {}),
    });
  if (answer.notSent) {
    run.recorder.skip(operation.id, NEGATIVE_CHECK, answer.notSent);
    return verdicts;
  }
  if (answer.status === undefined) {
    record('failed', answer.problem ?? 'not sent', /no answer within/.test(answer.problem ?? '') ? 'hung' : undefined);
  } else if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
    record('passed', `${answer.status} (${negative.what})`);
  } else if (answer.status >= 500) {
    record('failed', `${negative.what}: answered ${answer.status}`);
  } else {
    if (quota && answer.status < 300) run.budget.spendScans(quota.cost(negative.input));
    const text =
      answer.status === 429
        ? `${negative.what}: rate limited (429)`
        : `${negative.what}: the server accepted it, answered ${answer.status} (more lenient than the spec)`;
    if (answer.status === 429 || operation.provisional) {
      record(
        'inconclusive',
        operation.provisional && answer.status !== 429 ? `${text}; the operation is x-provisional` : text,
      );
    } else record('warning', text);
  }
  return verdicts;
}
