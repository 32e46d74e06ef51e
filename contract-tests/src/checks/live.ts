/**
 * The contract suite against a live service (CONTRACT_TARGET=live), as vitest tests. Requests go straight to the
 * service, never through Prism, only with inputs a real account can answer, within the budget of the service's
 * profile (`../engine/budget.ts`). One test per read, each running the named checks in order: sampling
 * (`listing.ts`: which records and pages), baseline (`baseline.ts`, with identity for lookups), then, only when
 * the baseline was verified, the all-inputs call, negative (`negative.ts`) and auth (`auth.ts`); writes and
 * dangerous operations only inside the lifecycles of records the run creates (`../engine/lifecycles.ts`). The
 * field collection rides on every validated record (`../evidence/fields.ts`). Every finding lands once in the
 * evidence ledger (the vendor-fact checks of `vendor-facts.ts` too, run first), written as `evidence-<service>.json` when the service's tests end (verified, failed, warned,
 * inconclusive or not run); a fail also fails the test that reached it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractOperation } from '../contract-spec/spec.ts';
import { dangerousOperations, planLifecycles } from '../engine/lifecycles.ts';
import { type CallOutcome, LiveRun, type LiveSuiteOptions } from '../engine/run.ts';
import { coverageDir } from '../evidence/coverage.ts';
import { judgeService } from '../evidence/evidence.ts';
import { merge, noVerdicts, worst } from '../evidence/verdicts.ts';
import { writeServices } from '../settings.ts';
import { AUTH_CHECK, authCheck } from './auth.ts';
import { examineAnswer } from './baseline.ts';
import { Answers, labelOf, type PathSample } from './listing.ts';
import { NEGATIVE_CHECK, negativeCheck, negativeRequest } from './negative.ts';
import { defineVendorFactChecks } from './vendor-facts.ts';

export const LIVE_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'positive_data_acceptance',
  'identity',
  'answer_within_timeout',
  'negative_data_rejection',
  'ignored_auth',
] as const;

const coveragesOf = (operation: ContractOperation) =>
  operation.parameters.some((p) => !p.required && p.in !== 'path') || operation.body
    ? (['required', 'all'] as const)
    : (['required'] as const);

const pages = (operation: ContractOperation) =>
  operation.parameters.some((p) => p.in === 'query' && (p.name === 'page' || p.name === 'offset'));

export function defineLiveSuite(options: LiveSuiteOptions): void {
  const run = new LiveRun(options);
  const { spec, recorder, ledger, budget, service } = run;
  // The vendor's facts first (one request at a time), their findings in this run's evidence.
  defineVendorFactChecks({ ...options, mode: 'live', ledger, scrub: (text) => run.scrub(text) });
  recorder.attach('budget', budget.figures);
  const answers = new Answers(run);
  const quota = run.profile.budget.quota;
  const lifecycles = planLifecycles({
    service,
    spec,
    profile: run.profile.lifecycles,
    writesAllowed: writeServices().has(service),
    dangerousAllowed: dangerousOperations(),
  });

  // A metered service (profile `quota`): which calls spend the run's units, fixed before any runs: every read's
  // required-inputs call in spec order, then the all-inputs calls, then the negative checks (a lenient server
  // may answer, and bill, a broken request), while the budget lasts. Nothing unplanned is ever sent.
  const plan = new Set<string>();
  if (quota) {
    const reads = spec.operations.filter((op) => op.safety === 'read');
    for (const coverage of ['required', 'all'] as const) {
      for (const operation of reads.filter((op) => coveragesOf(op).includes(coverage as never))) {
        if (budget.reserveScans(quota.cost(run.inputFor(operation, coverage, {}))))
          plan.add(`${operation.id} ${coverage}`);
      }
    }
    for (const operation of reads) {
      const negative = negativeRequest(run, operation, {});
      if (negative && budget.reserveScans(quota.cost(negative.input))) plan.add(`${operation.id} negative`);
    }
  }
  const planned = (operation: ContractOperation, what: string) => !quota || plan.has(`${operation.id} ${what}`);
  const quotaSpent = () => `${quota?.unit} budget spent (${quota?.env}=${budget.figures.scanBudget})`;

  const reads = spec.operations.filter((op) => op.safety === 'read');
  run.progress.total = reads.length;

  // After every test of the file, the lifecycles' included: the evidence, and the one line that sums it up.
  afterAll(async () => {
    const evidence = await ledger.write(coverageDir('live'), { ...budget.figures });
    const verdict = judgeService(evidence);
    const reasons = verdict.reasons.length
      ? ` — ${verdict.reasons.slice(0, 3).join('; ')}${verdict.reasons.length > 3 ? `; and ${verdict.reasons.length - 3} more` : ''}`
      : '';
    run.progress.line(
      `verified ${verdict.verified} of ${verdict.total} operations: ${verdict.state}${reasons} (seed ${run.seed})`,
    );
  });

  describe.concurrent(`${service} contract (live, ${run.shownBase})`, () => {
    beforeAll(() => {
      run.progress.line(
        `live run of ${reads.length} reads (${spec.operations.length} operations), seed ${run.seed} (replay with CONTRACT_SEED=${run.seed}), ${run.samplesWanted} records per lookup, ${run.pagesBetween} pages between the first and the last`,
      );
    });

    for (const operation of spec.operations) {
      const safety = operation.safety;
      const title = `${operation.id} (${operation.method} ${operation.path}, ${safety})`;
      if (safety !== 'read') {
        // Writes and dangerous operations run only inside the lifecycles of records the run creates.
        const reason = lifecycles.skipReason(operation);
        if (reason) {
          recorder.skip(operation.id, 'success:required', reason);
          ledger.notRun(operation.id, reason);
          it.skip(`${title} — skipped: ${reason}`, () => expect.unreachable());
        }
        continue;
      }
      const hasPath = operation.parameters.some((p) => p.in === 'path');
      const skipNote = hasPath ? '; not run when the live account holds no such record' : '';
      it(`${title}: ${LIVE_CHECKS.join(', ')}${skipNote}`, async (context) => {
        const found = noVerdicts();
        const own = noVerdicts();
        const finish = (note?: string) => {
          const evidence = ledger.operation(operation.id);
          run.progress.step(operation.id, evidence.verdict, note ?? evidence.reason);
        };
        const samples = await answers.pathSamples(operation, run.samplesWanted, found);
        if (typeof samples === 'string') {
          // Not run: nothing configured, or no such record in the account, is outside the floor (the lookups floor
          // still wants one lookup verified); a source that failed is not.
          ledger.notRun(operation.id, samples, /^its source /.test(samples) ? undefined : samples);
          for (const check of ['success:required', 'success:all']) recorder.skip(operation.id, check, samples);
          finish(samples);
          expect(found.fail, `${operation.id}: its source's answers`).toEqual([]);
          context.skip(samples);
          return;
        }
        const [first] = samples as [PathSample, ...PathSample[]];
        if (samples.every((s) => s.basis.guess)) ledger.outsideFloor(operation.id, first.basis.guess as string);
        if (operation.provisional) ledger.outsideFloor(operation.id, 'the operation is x-provisional');

        // Baseline: the required inputs for every sampled record (a list: its pages as sampling chose them).
        let baselineVerified = false;
        if (!planned(operation, 'required')) {
          ledger.notRun(operation.id, quotaSpent(), quotaSpent());
          recorder.skip(operation.id, 'success:required', quotaSpent());
        } else {
          const ends = [];
          for (const sample of samples) {
            const input = run.inputFor(operation, 'required', sample.values);
            const basis = run.basisOf(operation, input, sample.basis);
            const answer = await answers.answer(
              operation,
              input,
              labelOf('required', sample.basis),
              basis,
              'baseline',
              sample.identity,
            );
            merge(own, answer.examined.verdicts);
            ends.push(answer.examined.end);
            if (answer.examined.end === 'inconclusive' && basis.guess) ledger.outsideFloor(operation.id, basis.guess);
          }
          if (pages(operation)) {
            const listing = await answers.listing(operation, first.values, first.basis);
            for (const { answer } of listing.pages.slice(1)) merge(own, answer.examined.verdicts);
            recorder.verdict(
              operation.id,
              'sampling',
              'passed',
              `pages ${listing.pages.map((p) => p.page).join(', ')} of ${listing.last} (seed ${run.seed})`,
            );
          }
          baselineVerified = ends.includes('verified') && own.fail.length === 0;
          const verdict = worst(own);
          recorder.verdict(
            operation.id,
            'success:required',
            verdict.outcome,
            verdict.lines.length ? verdict.lines.join(' | ') : hasPath ? `${samples.length} record(s)` : undefined,
          );
        }

        const notVerified = 'the baseline request was not verified';
        // The optional inputs once, on the first record.
        if (coveragesOf(operation).length === 1) {
          recorder.skip(operation.id, 'success:all', 'the operation takes no optional input');
        } else if (!baselineVerified) recorder.skip(operation.id, 'success:all', notVerified);
        else if (!planned(operation, 'all')) recorder.skip(operation.id, 'success:all', quotaSpent());
        else {
          const input = run.inputFor(operation, 'all', first.values);
          const { listed: _listed, ...unlisted } = first.basis;
          const basis = run.basisOf(operation, input, unlisted);
          const answer = await answers.answer(operation, input, labelOf('all', first.basis), basis, 'optional');
          const verdicts = answer.examined.verdicts;
          merge(own, verdicts);
          const verdict = worst(verdicts);
          recorder.verdict(operation.id, 'success:all', verdict.outcome, verdict.lines.join(' | ') || undefined);
        }

        const negative = negativeRequest(run, operation, first.values);
        if (!negative) recorder.skip(operation.id, NEGATIVE_CHECK, 'no input of this read can break the spec');
        else if (!baselineVerified) recorder.skip(operation.id, NEGATIVE_CHECK, notVerified);
        else if (!planned(operation, 'negative')) recorder.skip(operation.id, NEGATIVE_CHECK, quotaSpent());
        else merge(own, await negativeCheck(run, operation, negative));

        const secured = Object.keys(run.target.credentials).length > 0 && operation.secured;
        if (!secured) recorder.skip(operation.id, AUTH_CHECK, 'the operation needs no credentials');
        else if (!baselineVerified) recorder.skip(operation.id, AUTH_CHECK, notVerified);
        else {
          const input = run.inputFor(operation, 'required', first.values);
          merge(own, await authCheck(run, operation, input, run.basisOf(operation, input, first.basis)));
        }
        finish();
        expect(found.fail, `${operation.id}: its source's answers`).toEqual([]);
        expect(own.fail, `${operation.id} live checks (fail)`).toEqual([]);
        if (run.strict) expect(own.warning, `${operation.id} live checks (warnings, CONTRACT_STRICT=1)`).toEqual([]);
      });
    }
  });

  lifecycles.define({
    call: (operation, input) => run.call(operation, input),
    checkAnswer: (operation, outcome, label) =>
      examineAnswer(run, operation, outcome as CallOutcome, label, {}, 'lifecycle').verdicts.fail,
    recorder,
    scrub: (message) => run.scrub(message),
  });
}
