/**
 * The vendor's facts the overlays repair (issue 40), each checked against the target, read from the manifest rows
 * (`ContractOperation`) and never from operation names:
 *
 * - `documented_404`: a lookup whose spec documents 404, sent ids no record has, answers 404. A promise: any
 *   other 2xx or a 5xx fails. Not on a mock that answers every id (Prism), which the suite's `Prefer: code=404`
 *   covers.
 * - `page_bounds`: a listing's `page` or `offset` below its minimum is refused (400/422, any 4xx). Left open by
 *   the contract: acceptance is a warning (red with CONTRACT_STRICT=1); a 5xx fails.
 * - `cursor_answer_shape`: an operation whose path takes a cursor (`/…/after/{id}`) and whose spec answers an
 *   array answers an array. A promise: one object fails; the documented 404 (nothing after) is inconclusive.
 * - `batch_max_items`: a body array over its `maxItems` is refused, like `page_bounds`; acceptance on an
 *   x-provisional operation is inconclusive (its spec is itself a guess, as in `negative.ts`). Live, only when the
 *   service's metered budget covers every item a lenient service would bill.
 *
 * `probeVendorFacts` sends the requests (through the client, its input rules lifted, one at a time) and judges
 * them; `defineVendorFactChecks` turns that into tests and coverage entries, in mock and live mode alike, and live
 * into evidence entries too (`recordVendorFindings`).
 */
import { resolveRef } from '@agent-apis/specs/openapi';
import { describe, expect, it } from 'vitest';
import type { ContractOperation, ContractSpec } from '../contract-spec/spec.ts';
import { operationFunction, peekBody, type ServiceProfile } from '../engine/profile.ts';
import { withoutInputRules } from '../engine/raw-requests.ts';
import type { Target } from '../engine/run.ts';
import { type CallInput, sampleInput } from '../engine/values.ts';
import type { CoverageRecorder, Outcome } from '../evidence/coverage.ts';
import type { EvidenceLedger, Severity } from '../evidence/ledger.ts';
import { contractNumber, strictMode } from '../settings.ts';

export const VENDOR_FACT_CHECKS = ['documented_404', 'page_bounds', 'cursor_answer_shape', 'batch_max_items'] as const;
export type VendorFactCheck = (typeof VENDOR_FACT_CHECKS)[number];

export interface VendorFinding {
  check: VendorFactCheck;
  operation: string;
  outcome: Outcome;
  detail: string;
}

export interface ProbeOptions {
  profile: ServiceProfile;
  spec: ContractSpec;
  target: Target;
  /** `mock` (Prism): lookups answer any id, so `documented_404` is skipped there. */
  mode: 'mock' | 'live';
  /** Units (scans) the probe may spend at a metered service; a check that could bill more is skipped. */
  scanAllowance?: number;
  /** Lookups to send ids no record has, spread over the spec's order (default 12: the rate budget is shared). */
  lookups?: number;
  /** Milliseconds between two requests (default 100: ten a second, far inside every documented rate limit). */
  spacingMs?: number;
}

/** An id no record has: the largest int32 (the store's ids are int32), or a string no key takes. */
const MISSING_INTEGER = 2_147_483_647;
const MISSING_STRING = 'no-such-record-40';
/** Whether a request path carries one of the ids `documented_404` sends on purpose. */
export const isUnknownIdProbe = (path: string) =>
  path.includes(String(MISSING_INTEGER)) || path.includes(MISSING_STRING);

type Schema = Record<string, unknown>;
const schemaOf = (spec: ContractSpec, schema: unknown): Schema =>
  (resolveRef<Schema>(spec.document, schema as never) ?? {}) as Schema;

interface Answer {
  status?: number;
  body?: unknown;
  problem?: string;
}

/** One request of `operation` with `input`, through the client with its input rules lifted. */
async function send(options: ProbeOptions, operation: ContractOperation, input: CallInput): Promise<Answer> {
  let seen: Answer | undefined;
  const fetch: typeof globalThis.fetch = async (request, init) => {
    const response = await globalThis.fetch(request, init);
    seen = { status: response.status, body: await peekBody(response) };
    return response;
  };
  const client = options.profile.createClient(options.target, fetch);
  try {
    await operationFunction(options.profile, operation.id)(
      { request: (op, callOptions) => client.request(withoutInputRules(op), callOptions) },
      { ...input, maxRetries: 0, timeout: 30_000 },
    );
  } catch (error) {
    if (!seen) return { problem: `no answer: ${(error as Error).message}` };
  }
  return seen ?? { problem: 'no answer' };
}

/** How a refusal check reads an answer: refused passes, accepted is lenient, a 5xx or no answer fails. */
function judgeRefusal(answer: Answer, what: string, provisional: boolean): { outcome: Outcome; detail: string } {
  if (answer.status === undefined) return { outcome: 'failed', detail: `${what}: ${answer.problem}` };
  if (answer.status === 429) return { outcome: 'inconclusive', detail: `${what}: rate limited (429)` };
  if (answer.status >= 500) return { outcome: 'failed', detail: `${what}: answered ${answer.status}` };
  if ([401, 403, 404].includes(answer.status))
    return { outcome: 'inconclusive', detail: `${what}: answered ${answer.status}, which says nothing of the value` };
  if (answer.status >= 400) return { outcome: 'passed', detail: `${what}: refused with ${answer.status}` };
  const detail = `${what}: accepted, answered ${answer.status} (more lenient than the spec)`;
  return provisional
    ? { outcome: 'inconclusive', detail: `${detail}; the operation is x-provisional` }
    : { outcome: 'warning', detail };
}

/** Every operation of `list` when it is short, else `count` of them spread evenly over it. */
function spread<T>(list: T[], count: number): T[] {
  if (list.length <= count) return list;
  return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)] as T);
}

/** The operations each check applies to, by the facts of their manifest rows. */
export function vendorFactTargets(spec: ContractSpec, lookups = 12) {
  const reads = spec.operations.filter((op) => op.safety === 'read');
  const pathParams = (op: ContractOperation) => op.parameters.filter((p) => p.in === 'path');
  const plainPath = (op: ContractOperation) =>
    pathParams(op).every((p) => {
      const schema = schemaOf(spec, p.schema);
      return !schema.enum && ['integer', 'string'].includes(String(schema.type));
    });
  const notFound = reads.filter(
    (op) => op.errorStatuses.includes(404) && pathParams(op).length > 0 && plainPath(op) && !op.cursor,
  );
  const bounded = reads.flatMap((op) =>
    op.parameters
      .filter((p) => p.in === 'query' && ['page', 'offset'].includes(p.name))
      .filter((p) => typeof schemaOf(spec, p.schema).minimum === 'number')
      .map((p) => ({ operation: op, parameter: p.name, minimum: schemaOf(spec, p.schema).minimum as number })),
  );
  // A few listings per bounded parameter are the fact's evidence, top-level ones first (a made-up parent id in
  // the path would be answered 404 whatever the page).
  const topLevel = (b: (typeof bounded)[number]) => (b.operation.parameters.some((p) => p.in === 'path') ? 1 : 0);
  const boundedSample = ['page', 'offset'].flatMap((name) =>
    bounded
      .filter((b) => b.parameter === name)
      .sort((a, b) => topLevel(a) - topLevel(b))
      .slice(0, 3),
  );
  const cursors = reads.filter((op) => op.cursor && schemaOf(spec, op.successSchema).type === 'array');
  const batches = spec.operations.flatMap((op) => {
    if (!op.body) return [];
    const properties = (schemaOf(spec, op.body.schema).properties ?? {}) as Record<string, unknown>;
    return Object.entries(properties)
      .map(([name, property]) => ({ name, schema: schemaOf(spec, property) }))
      .filter(({ schema }) => schema.type === 'array' && typeof schema.maxItems === 'number')
      .map(({ name, schema }) => ({ operation: op, property: name, maxItems: schema.maxItems as number }));
  });
  return { notFound: spread(notFound, lookups), bounded: boundedSample, cursors, batches };
}

/** Sends the vendor-fact requests to the target, one at a time, and judges each answer. */
export async function probeVendorFacts(options: ProbeOptions): Promise<VendorFinding[]> {
  const { spec, mode } = options;
  const spacing = options.spacingMs ?? 100;
  const targets = vendorFactTargets(spec, options.lookups);
  const findings: VendorFinding[] = [];
  const found = (check: VendorFactCheck, operation: ContractOperation, outcome: Outcome, detail: string) =>
    findings.push({ check, operation: operation.id, outcome, detail });
  let first = true;
  const paced = async (operation: ContractOperation, input: CallInput) => {
    if (!first) await new Promise((resolve) => setTimeout(resolve, spacing));
    first = false;
    return send(options, operation, input);
  };

  for (const operation of targets.notFound) {
    if (mode === 'mock') {
      found('documented_404', operation, 'skipped', 'the mock answers every id; Prefer: code=404 covers the 404');
      continue;
    }
    const path = Object.fromEntries(
      operation.parameters
        .filter((p) => p.in === 'path')
        .map((p) => [p.name, schemaOf(spec, p.schema).type === 'integer' ? MISSING_INTEGER : MISSING_STRING]),
    );
    const what = `ids no record has (${Object.entries(path)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')})`;
    const answer = await paced(operation, { ...sampleInput(spec.document, operation, 'required'), path });
    const status = answer.status;
    if (status === 404) found('documented_404', operation, 'passed', `${what}: 404`);
    else if (status === undefined) found('documented_404', operation, 'failed', `${what}: ${answer.problem}`);
    else if ([401, 403, 429].includes(status))
      found('documented_404', operation, 'inconclusive', `${what}: answered ${status}, which says nothing of the id`);
    else if (status < 300 || status >= 500)
      found('documented_404', operation, 'failed', `${what}: answered ${status}; the spec documents 404`);
    else found('documented_404', operation, 'warning', `${what}: answered ${status}, not the documented 404`);
  }

  for (const { operation, parameter, minimum } of targets.bounded) {
    const input = sampleInput(spec.document, operation, 'required');
    const path = Object.fromEntries(
      operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, input.path?.[p.name]]),
    );
    const what = `query.${parameter}=${minimum - 1}, below its minimum ${minimum}`;
    const answer = await paced(operation, { ...input, path, query: { ...input.query, [parameter]: minimum - 1 } });
    const judged = judgeRefusal(answer, what, operation.provisional);
    found('page_bounds', operation, judged.outcome, judged.detail);
  }

  for (const operation of targets.cursors) {
    const cursor = operation.cursor?.parameter ?? 'id';
    const answer = await paced(operation, {
      ...sampleInput(spec.document, operation, 'required'),
      path: { [cursor]: 0 },
    });
    const what = `${cursor}=0 (everything after the first)`;
    if (answer.status === 200 && Array.isArray(answer.body))
      found('cursor_answer_shape', operation, 'passed', `${what}: a list of ${answer.body.length}`);
    else if (answer.status === 200)
      found(
        'cursor_answer_shape',
        operation,
        'failed',
        `${what}: answered ${answer.body === null ? 'null' : typeof answer.body}, not the list the spec promises`,
      );
    else if (answer.status === 404)
      found('cursor_answer_shape', operation, 'inconclusive', `${what}: 404, nothing after it (documented)`);
    else if (answer.status === undefined || answer.status >= 500)
      found('cursor_answer_shape', operation, 'failed', `${what}: ${answer.problem ?? `answered ${answer.status}`}`);
    else found('cursor_answer_shape', operation, 'inconclusive', `${what}: answered ${answer.status}`);
  }

  for (const { operation, property, maxItems } of targets.batches) {
    const cost = maxItems + 1;
    if (operation.spendsQuota && options.scanAllowance !== undefined && options.scanAllowance < cost) {
      found(
        'batch_max_items',
        operation,
        'skipped',
        `a lenient service would bill all ${cost} items; the budget allows ${options.scanAllowance}`,
      );
      continue;
    }
    const input = sampleInput(spec.document, operation, 'required');
    const example = (operation.body?.example?.value ?? input.body ?? {}) as Record<string, unknown>;
    const items = (example[property] as unknown[] | undefined) ?? [];
    const one = items[0] ?? 'example.com';
    const long = Array.from({ length: cost }, (_, i) => (typeof one === 'string' ? `item-${i}.${one}` : one));
    const answer = await paced(operation, { ...input, body: { ...example, [property]: long } });
    const judged = judgeRefusal(
      answer,
      `${property} with ${cost} items, over its maxItems ${maxItems}`,
      operation.provisional,
    );
    found('batch_max_items', operation, judged.outcome, judged.detail);
  }
  return findings;
}

/**
 * Where findings go: each is a coverage entry; live, a failed, warning or inconclusive one also lands once in the
 * evidence ledger under its check (as `findings.ts` does for the other checks), so a red one fails its operation
 * in `evidence-<service>.json` and shows in the report. `scrub` keeps the base URL out of what is recorded.
 */
export function recordVendorFindings(
  findings: readonly VendorFinding[],
  recorder: CoverageRecorder,
  ledger?: EvidenceLedger,
  scrub: (text: string) => string = (text) => text,
): void {
  for (const finding of findings) {
    const detail = scrub(finding.detail);
    if (finding.outcome === 'skipped') {
      recorder.skip(finding.operation, finding.check, detail);
      continue;
    }
    recorder.verdict(finding.operation, finding.check, finding.outcome, detail);
    if (!ledger || finding.outcome === 'passed') continue;
    const severity: Severity = finding.outcome === 'failed' ? 'fail' : finding.outcome;
    ledger.add(finding.operation, { severity, check: finding.check, message: detail });
  }
}

/**
 * The vendor-fact checks as tests of the service's contract file (`suite.ts` on a mock, `live.ts` live with the
 * run's evidence ledger). They run before the suite's own tests, one request at a time, so they never overlap its
 * paced requests; findings are recorded by `recordVendorFindings`. A failed finding fails the test; a warning too
 * under CONTRACT_STRICT=1.
 */
export function defineVendorFactChecks(options: {
  profile: ServiceProfile;
  spec: ContractSpec;
  target: Target;
  mode: 'mock' | 'live';
  recorder: CoverageRecorder;
  /** Live: the run's evidence ledger, and its scrub of the base URL. */
  ledger?: EvidenceLedger;
  scrub?: (text: string) => string;
}): void {
  const { profile, spec, recorder, mode, ledger, scrub } = options;
  const quota = profile.budget.quota;
  const targets = vendorFactTargets(spec);
  const count = targets.notFound.length + targets.bounded.length + targets.cursors.length + targets.batches.length;
  if (count === 0) return;
  describe(`${profile.service}: the vendor's facts (${VENDOR_FACT_CHECKS.join(', ')})`, () => {
    it(`${count} requests: 404 for unknown ids, bounds refused, cursor answers a list, batch caps`, async () => {
      const findings = await probeVendorFacts({
        ...options,
        ...(quota && mode === 'live' ? { scanAllowance: contractNumber(process.env, quota.env) } : {}),
      });
      recordVendorFindings(findings, recorder, ledger, scrub);
      // A rate-limited service: let its one-second window empty before the suite's own paced requests start.
      if (mode === 'live' && profile.budget.rateLimit) await new Promise((resolve) => setTimeout(resolve, 1_100));
      const lines = (outcome: Outcome) =>
        findings.filter((f) => f.outcome === outcome).map((f) => `${f.operation} ${f.check}: ${f.detail}`);
      expect(lines('failed'), `${profile.service}: the vendor's facts (fail)`).toEqual([]);
      if (strictMode()) expect(lines('warning'), `${profile.service}: warnings (CONTRACT_STRICT=1)`).toEqual([]);
    }, 120_000);
  });
}
