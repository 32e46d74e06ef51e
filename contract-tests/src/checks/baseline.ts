/**
 * The baseline check: what one answer proves. Every answer of a live run passes through here (baseline requests,
 * list pages, the all-inputs call, lifecycle steps), each examined once, each finding recorded once in the
 * evidence ledger and in the coverage recorder under the named check that reached it:
 *
 * - fail: a 5xx; no answer within CONTRACT_TIMEOUT (a hung request, once); an answer whose content type is not
 *   the documented one, error answers included (an HTML page where JSON is promised); a 401/403 to a request that
 *   carried the run's credentials; a 404 on a collection path, or to the lookup of a record the service itself
 *   listed; any other 4xx to a baseline request the suite did not construct (required inputs only, path values
 *   the service listed, nothing guessed); a documented 2xx whose status, required headers or schema do not
 *   match; a lookup answering another record than the one asked for (`identity.ts`);
 * - warning: a 4xx to a request the suite constructed (optional inputs, made-up required query values, a page
 *   number, the operator's own value); a documented optional header not sent; an undocumented error status;
 * - inconclusive: a rejection of a request that rested on a guess; a 429 past the run's wait;
 * - documented end: the documented 404 of a cursor (`x-contract-cursor`): nothing after it;
 * - not sent: the budget did not send it (a 429 stopped the run earlier, the call gave up waiting its turn).
 */
import { type OpenApiDocument, resolveRef } from '@agent-apis/specs/openapi';
import type { ContractOperation } from '../contract-spec/spec.ts';
import type { CallOutcome, LiveRun } from '../engine/run.ts';
import type { Outcome } from '../evidence/coverage.ts';
import { recordsOf } from '../evidence/fields.ts';
import type { BaselineEnd, Severity } from '../evidence/ledger.ts';
import type { Basis, Verdicts } from '../evidence/verdicts.ts';
import { noVerdicts } from '../evidence/verdicts.ts';
import { type IdentityKey, identityMismatches } from './identity.ts';

/**
 * Whether a received media type is one the spec documents: compared without case (media types are
 * case-insensitive), a documented wildcard (any type, or any subtype of one type) as a range, and a `+json`
 * subtype as its `application/json`.
 */
export function mediaTypeMatches(documented: string, received: string): boolean {
  const want = documented.trim().toLowerCase();
  const got = received.trim().toLowerCase();
  if (want === got || want === '*/*') return true;
  const [wantType, wantSub] = want.split('/');
  const [gotType, gotSub] = got.split('/');
  if (wantSub === '*') return wantType === gotType;
  return want === 'application/json' && gotType === 'application' && (gotSub ?? '').endsWith('+json');
}

type DocumentedResponse = { content?: Record<string, unknown>; headers?: Record<string, unknown> };

function responsesOf(document: OpenApiDocument, operation: ContractOperation): Record<string, unknown> {
  const item = (document.paths?.[operation.path] ?? {}) as Record<string, { responses?: Record<string, unknown> }>;
  return item[operation.method.toLowerCase()]?.responses ?? {};
}

/** The operation's documented response for `status` (or `default`), as the spec declares it. */
export function documentedResponse(
  document: OpenApiDocument,
  operation: ContractOperation,
  status: number,
): DocumentedResponse | undefined {
  const responses = responsesOf(document, operation);
  const raw = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  return raw === undefined ? undefined : (resolveRef(document, raw as never) as DocumentedResponse);
}

/**
 * The media types the spec promises for an answer with `status`: those of its documented response, else (an
 * undocumented status) those every documented response of the operation shares, when they are all JSON.
 */
export function promisedTypes(document: OpenApiDocument, operation: ContractOperation, status: number): string[] {
  const documented = documentedResponse(document, operation, status);
  if (documented) return Object.keys(documented.content ?? {});
  const all = Object.values(responsesOf(document, operation)).map((raw) =>
    Object.keys((resolveRef(document, raw as never) as DocumentedResponse)?.content ?? {}),
  );
  const types = [...new Set(all.flat())];
  return types.length > 0 && types.every((t) => mediaTypeMatches('application/json', t)) ? types : [];
}

/** What an answer is examined as: the baseline of its operation, a list page, the all-inputs call, a lifecycle step. */
export type AnswerKind = 'baseline' | 'page' | 'optional' | 'lifecycle';

export interface Examined {
  end: BaselineEnd;
  verdicts: Verdicts;
}

/**
 * The checks of one answer, each recorded with its verdict in the coverage recorder and, once per defect, in the
 * evidence ledger. `label` names the request in messages (`required, id=1103`, `page 3`); `identity` the keys of
 * the record asked for.
 */
export function examineAnswer(
  run: LiveRun,
  operation: ContractOperation,
  outcome: CallOutcome,
  label: string,
  basis: Basis,
  kind: AnswerKind,
  identity: readonly IdentityKey[] = [],
): Examined {
  const { recorder, ledger, spec } = run;
  const verdicts = noVerdicts();
  const seen = outcome.seen;
  const where = seen
    ? { url: run.shownUrl(seen.url), reproduction: run.reproductionOf(seen) as string }
    : { url: undefined, reproduction: undefined };
  const record = (
    check: string,
    verdict: Exclude<Outcome, 'skipped'>,
    shown?: string,
    key: string = `${check} ${shown}`,
  ) => {
    const detail = shown === undefined ? undefined : run.scrub(shown);
    if (verdict === 'passed') {
      recorder.verdict(operation.id, check, 'passed', detail);
      return;
    }
    const message = `${operation.id}: ${check}: ${detail}`;
    recorder.verdict(operation.id, check, verdict, message);
    const severity: Severity = verdict === 'failed' ? 'fail' : verdict;
    verdicts[severity].push(message);
    ledger.add(operation.id, {
      severity,
      check,
      message: detail ?? check,
      key,
      ...(basis.record ? { record: basis.record } : {}),
      ...(where.url ? { url: where.url } : {}),
      ...(where.reproduction ? { reproduction: where.reproduction } : {}),
    });
  };
  // A baseline (or lifecycle) answer decides the operation's verdict in the ledger: how it ended is kept.
  const ended = (end: BaselineEnd): Examined => {
    const final = verdicts.fail.length ? 'failed' : end;
    if (kind === 'baseline' || kind === 'lifecycle') {
      const note =
        final === 'documented-end'
          ? `the documented 404 after ${basis.record}: nothing after it (${basis.cursor})`
          : undefined;
      ledger.baseline(operation.id, final, note);
    }
    return { end: final, verdicts };
  };

  if (!seen) {
    if (outcome.notSent) {
      ledger.notRun(operation.id, outcome.notSent);
      return ended('not-sent');
    }
    if (outcome.dispatch.timedOut) {
      record(
        'answer_within_timeout',
        'failed',
        `${label}: no answer within ${run.budget.timeoutMs / 1000} s (CONTRACT_TIMEOUT): the request hung`,
        'hung',
      );
      return ended('failed');
    }
    const error = 'error' in outcome ? (outcome.error as Error | undefined) : undefined;
    record('positive_data_acceptance', 'failed', `${label}: no answer (${error?.message})`, 'no answer');
    return ended('failed');
  }

  const { status } = seen;
  const documented = documentedResponse(spec.document, operation, status);
  const type = seen.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  const hasBody = seen.body !== undefined && seen.body !== '';
  // Any answer with a body, error answers included, carries a documented content type.
  const promised = promisedTypes(spec.document, operation, status);
  const typeOk = !hasBody || promised.length === 0 || promised.some((t) => mediaTypeMatches(t, type));
  const typeProblem = typeOk
    ? undefined
    : `${label}: ${status} answered with content type ${type || '(none)'}${/html/i.test(type) ? ' (an HTML page)' : ''}, where the spec documents ${promised.join(', ')}`;

  record(
    'not_a_server_error',
    status >= 500 ? 'failed' : 'passed',
    status >= 500 ? `${label}: answered ${status}` : undefined,
    `5xx ${status}`,
  );
  if (status >= 500) return ended('failed');
  if (status >= 300) {
    const sent = basis.sent ? `, sent ${basis.sent}` : '';
    const what = `a valid request (${label}${sent}) got ${status}${documented ? '' : ', a status the spec does not document'}`;
    const credentialed = Object.keys(run.target.credentials).length > 0 && operation.secured;
    // A 429 says nothing about the API, whatever its body (a proxy's page included): the budget ran out.
    if (status === 429) {
      record('positive_data_acceptance', 'inconclusive', `${label}: rate limited (429) beyond the run's wait`, '429');
      return ended('inconclusive');
    }
    // Any other answer that is not the API's (an HTML challenge page) is one defect, named by its content type.
    if (typeProblem) {
      record('content_type_conformance', 'failed', typeProblem, `content-type ${type} ${status}`);
      return ended('failed');
    }
    if ((status === 401 || status === 403) && credentialed && !basis.guess) {
      record(
        'positive_data_acceptance',
        'failed',
        `${what}: refused the run's credentials (${status} to a request that carried them)`,
        `auth ${status}`,
      );
      return ended('failed');
    }
    if (status === 404 && basis.cursor && documented) {
      // The cursor's documented answer when nothing comes after it (the newest record).
      recorder.verdict(operation.id, 'positive_data_acceptance', 'passed', `documented 404 after ${basis.record}`);
      return ended('documented-end');
    }
    if (basis.guess) {
      record('positive_data_acceptance', 'inconclusive', `${what}, but ${basis.guess}`, `guess ${status}`);
      return ended('inconclusive');
    }
    const collection = !operation.parameters.some((p) => p.in === 'path');
    if (status === 404 && basis.listed) {
      record('positive_data_acceptance', 'failed', `${what}: the record was listed by ${basis.listed}`, '404 listed');
      return ended('failed');
    }
    if (status === 404 && collection && kind !== 'page') {
      record('positive_data_acceptance', 'failed', `${what}: a collection path the spec documents is gone`, '404 path');
      return ended('failed');
    }
    if (kind === 'baseline' && !basis.constructed && !basis.operatorValue && !basis.cursor) {
      record(
        'positive_data_acceptance',
        'failed',
        `${what}: a baseline request (required inputs only, values the service listed, nothing made up)`,
        `baseline ${status}`,
      );
      return ended('failed');
    }
    const why = basis.operatorValue ? `the operator's ${basis.operatorValue}` : 'a request the suite constructed';
    record('positive_data_acceptance', 'warning', `${what} (${why})`, `rejected ${status}`);
    if (!documented) record('status_code_conformance', 'warning', `status ${status} is not documented`);
    return ended('warned');
  }

  record('positive_data_acceptance', 'passed');
  record(
    'status_code_conformance',
    documented ? 'passed' : 'failed',
    documented ? undefined : `${label}: status ${status} is not documented`,
    `status ${status}`,
  );
  if (!documented) return ended('failed');
  record('content_type_conformance', typeProblem ? 'failed' : 'passed', typeProblem, `content-type ${type} 2xx`);
  // Only a header the spec marks `required` is a promise; a documented optional one may be left out (or named
  // otherwise by another deployment), which is worth a warning, not a red.
  const headerSpecs = Object.entries(documented.headers ?? {}).map(([name, raw]) => ({
    name,
    required: (resolveRef(spec.document, raw as never) as { required?: boolean } | undefined)?.required === true,
  }));
  const missingRequired = headerSpecs.filter((h) => h.required && !seen.headers.has(h.name)).map((h) => h.name);
  const missingOptional = headerSpecs.filter((h) => !h.required && !seen.headers.has(h.name)).map((h) => h.name);
  record(
    'response_headers_conformance',
    missingRequired.length ? 'failed' : missingOptional.length ? 'warning' : 'passed',
    missingRequired.length
      ? `missing required header(s) ${missingRequired.join(', ')}`
      : missingOptional.length
        ? `documented optional header(s) not sent: ${missingOptional.join(', ')}`
        : undefined,
  );
  const problems = run.schemas.validateResponse(operation.method, operation.path, status, seen.body);
  const zod =
    'result' in outcome ? run.profile.validators[operation.id]?.response?.safeParse(outcome.result) : undefined;
  const lines = [
    ...problems.map((p) => `${p.path} ${p.message}`),
    ...(zod?.error?.issues ?? []).map((issue) => `${issue.path.join('.')} ${issue.message} (zod)`),
    ...('error' in outcome && !problems.length
      ? [`client refused the answer: ${(outcome.error as Error).message}`]
      : []),
  ];
  const records = recordsOf(seen.body);
  recorder.countRecords(operation.id, records.length);
  // The same field broken in ten records, or in the required and the all-inputs answer, is one defect.
  const schemaKey = `schema ${lines.map((line) => line.replace(/\/\d+(?=\/|\s|$)/g, '/[]').replace(/\.\d+\./g, '.[].')).join('; ')}`;
  record(
    'response_schema_conformance',
    lines.length ? 'failed' : 'passed',
    lines.length ? `response body (${label}) ${lines.join('; ')}` : undefined,
    schemaKey,
  );
  if (!lines.length) for (const entry of records) ledger.record(operation.id, entry);
  if (kind === 'baseline' && identity.length > 0) {
    const mismatches = identityMismatches(seen.body, identity);
    for (const m of mismatches) {
      record(
        'identity',
        'failed',
        `${label}: asked for ${m.parameter}=${JSON.stringify(m.asked)}, the answer is another record (${m.field}=${JSON.stringify(m.answered)})`,
        `identity ${m.field}`,
      );
    }
    if (mismatches.length === 0) recorder.verdict(operation.id, 'identity', 'passed', basis.record);
  }
  return ended('verified');
}
