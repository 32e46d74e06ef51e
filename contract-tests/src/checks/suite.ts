/**
 * One contract suite, two targets; this file drives the Prism mock, `live.ts` a live service. In mock mode, for
 * every operation of a final spec: a call with only the required inputs
 * and one with all of them, each asserting the documented success status and validating the body against the
 * spec's schema (Ajv) and the generated zod schema; every documented error status forced with
 * `Prefer: code=…` and mapped to the client's error class; and a request that breaks the spec, which the client
 * must stop or the server reject. Outcomes feed the coverage report.
 */
import { APIError, errorClassForStatus, RequestValidationError } from '@agent-apis/core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type ContractOperation, loadContractSpec } from '../contract-spec/spec.ts';
import { operationFunction, peekBody, type ServiceProfile } from '../engine/profile.ts';
import { SpecSchemaValidator } from '../engine/schema-validator.ts';
import { breakInput, type CallInput, sampleInput } from '../engine/values.ts';
import { CoverageRecorder, coverageDir, type ServiceCoverage } from '../evidence/coverage.ts';
import { defaultFloor, type OperationEvidence, type ServiceEvidence } from '../evidence/evidence.ts';
import { writeEvidence } from '../evidence/ledger.ts';
import { defineLiveSuite } from './live.ts';
import { defineVendorFactChecks } from './vendor-facts.ts';

interface RecordedResponse {
  status: number;
  body: unknown;
}

/** A fetch that talks HTTP to the target and remembers every response it saw. */
function recordingFetch(): { fetch: typeof globalThis.fetch; responses: RecordedResponse[] } {
  const responses: RecordedResponse[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    responses.push({ status: response.status, body: await peekBody(response) });
    return response;
  };
  return { fetch, responses };
}

/** Turns a Prism validating-proxy refusal into "operation, field, violation" lines. */
function describeFailure(operation: string, error: unknown): string {
  if (error instanceof APIError) {
    const body = error.body as { type?: string; validation?: { location?: string[]; message?: string }[] } | undefined;
    if (body?.validation?.length) {
      const lines = body.validation.map((v) => `${(v.location ?? []).join('.')}: ${v.message ?? 'invalid'}`);
      return `${operation}: ${error.status} ${body.type ?? ''} — ${lines.join('; ')}`;
    }
    return `${operation}: ${error.message}`;
  }
  return `${operation}: ${(error as Error).message}`;
}

/**
 * The evidence of a mock (Prism) run, from its coverage: an operation is verified when its required-inputs and
 * all-inputs calls passed, failed when any of its checks failed; a skipped service leaves every operation not run.
 */
export function mockEvidence(
  coverage: ServiceCoverage,
  operations: readonly ContractOperation[],
  startedAt: string,
  seed: string,
): ServiceEvidence {
  const evidence: OperationEvidence[] = operations.map((op) => {
    const entries = coverage.entries.filter((e) => e.operation === op.id);
    const failed = entries.filter((e) => e.outcome === 'failed');
    const passed = (check: string) => entries.some((e) => e.check === check && e.outcome === 'passed');
    const verdict = coverage.skipped
      ? 'not-run'
      : failed.length > 0
        ? 'failed'
        : passed('success:required') && passed('success:all')
          ? 'verified'
          : 'not-run';
    return {
      operation: op.id,
      method: op.method,
      path: op.path,
      safety: op.safety,
      verdict,
      ...(verdict === 'not-run' ? { reason: coverage.skipped ?? 'its checks did not finish' } : {}),
      failures: failed.map((e) => ({ check: e.check, message: e.note ?? `${e.check} failed` })),
      warnings: [],
      // One request per check run, but none for a broken request the client stopped before sending.
      requests: entries.filter((e) => e.outcome !== 'skipped' && !e.note?.startsWith('client:')).length,
      records: 0,
      fieldsAlwaysPresent: [],
    };
  });
  return {
    service: coverage.service,
    target: coverage.mode,
    startedAt,
    seed,
    ...(coverage.skipped ? { skipped: coverage.skipped } : {}),
    floor: defaultFloor(),
    operations: evidence,
  };
}

/** Defines the contract suite of the service `profile` describes (its contract file passes the profile in). */
export async function defineContractSuite(profile: ServiceProfile): Promise<void> {
  const { service, validators } = profile;
  const spec = await loadContractSpec(service);
  const target = inject('contractTargets')[service];
  const mode = inject('contractMode');
  const documentedErrors = Object.fromEntries(spec.operations.map((op) => [op.id, [...op.errorStatuses]]));
  const recorder = new CoverageRecorder(
    service,
    mode,
    spec.operations.map((op) => op.id),
    documentedErrors,
  );
  const startedAt = new Date().toISOString();
  afterAll(() => recorder.write(coverageDir(mode)));

  if (!target || target.skipReason || !target.baseUrl) {
    const reason = target?.skipReason ?? 'no target configured';
    recorder.skipService(reason);
    await recorder.write(coverageDir(mode));
    await writeEvidence(coverageDir(mode), mockEvidence(recorder.snapshot(), spec.operations, startedAt, ''));
    // Skipped, never counted as passed: the reason is in the title and in the coverage report.
    it.skip(`${service}: skipped: ${reason}`, () => expect.unreachable());
    return;
  }
  const baseUrl = target.baseUrl;
  const schemas = new SpecSchemaValidator(spec.document);
  if (mode === 'live') {
    // The live suite runs the vendor-fact checks itself, first, with its evidence ledger.
    defineLiveSuite({ profile, spec, target: { ...target, baseUrl }, schemas, recorder });
    return;
  }

  defineVendorFactChecks({ profile, spec, target: { ...target, baseUrl }, mode, recorder });
  // Prism's answers are seeded (global-setup's SEED); the evidence names the mock run's seed as that.
  afterAll(() =>
    writeEvidence(coverageDir(mode), mockEvidence(recorder.snapshot(), spec.operations, startedAt, 'prism')),
  );

  const call = async (operation: ContractOperation, input: CallInput, headers: Record<string, string>) => {
    const recorded = recordingFetch();
    const client = profile.createClient({ ...target, baseUrl }, recorded.fetch);
    const fn = operationFunction(profile, operation.id);
    try {
      const result = await fn(client, { ...input, headers: { ...input.headers, ...headers }, maxRetries: 0 });
      return { result, responses: recorded.responses };
    } catch (error) {
      return { error, responses: recorded.responses };
    }
  };

  describe.concurrent(`${service} contract (${mode}, ${baseUrl})`, () => {
    for (const operation of spec.operations) {
      describe(`${operation.id} (${operation.method} ${operation.path})`, () => {
        for (const coverage of ['required', 'all'] as const) {
          const check = `success:${coverage}`;
          const title = `${coverage} inputs → ${operation.successStatus}, body valid against the spec and zod`;
          it(title, async () => {
            const done = recorder.begin(operation.id, check);
            const headers: Record<string, string> = operation.successHasExample ? {} : { prefer: 'dynamic=true' };
            const outcome = await call(operation, sampleInput(spec.document, operation, coverage), headers);
            if ('error' in outcome) {
              const message = describeFailure(operation.id, outcome.error);
              recorder.fail(operation.id, check, message);
              throw new Error(message);
            }
            const last = outcome.responses.at(-1);
            expect(last?.status, `${operation.id} status`).toBe(operation.successStatus);
            const problems = schemas.validateResponse(
              operation.method,
              operation.path,
              operation.successStatus,
              last?.body,
            );
            expect(problems, `${operation.id} body vs spec schema`).toEqual([]);
            const zod = validators[operation.id]?.response?.safeParse(outcome.result);
            expect(zod?.error?.issues ?? [], `${operation.id} result vs zod schema`).toEqual([]);
            done();
          });
        }

        for (const status of operation.errorStatuses) {
          const check = `error:${status}`;
          const errorClass = errorClassForStatus(status);
          const title = `Prefer: code=${status} → ${errorClass.name}`;
          it(title, async () => {
            const done = recorder.begin(operation.id, check);
            const outcome = await call(operation, sampleInput(spec.document, operation, 'required'), {
              prefer: `code=${status}`,
            });
            expect('error' in outcome, `${operation.id} should fail with ${status}`).toBe(true);
            const error = (outcome as { error: unknown }).error;
            expect(error).toBeInstanceOf(errorClass);
            expect((error as APIError).status).toBe(status);
            expect((error as APIError).operation).toBe(operation.id);
            done();
          });
        }

        const broken = breakInput(spec.document, operation);
        const invalidTitle = 'a request that breaks the spec is stopped by the client or rejected by the server';
        const invalidSkip = 'the operation takes no input that could break the spec';
        if (!broken) {
          recorder.skip(operation.id, 'invalid-request', invalidSkip ?? '');
          it.skip(`${invalidTitle} — skipped: ${invalidSkip}`, () => expect.unreachable());
          return;
        }
        it(`${invalidTitle} (${broken.what})`, async () => {
          const done = recorder.begin(operation.id, 'invalid-request');
          const outcome = await call(operation, broken.input, {});
          expect('error' in outcome, `${operation.id} accepted a request that breaks the spec (${broken.what})`).toBe(
            true,
          );
          const error = (outcome as { error: unknown }).error;
          if (error instanceof RequestValidationError) {
            expect(outcome.responses, 'no request may be sent').toEqual([]);
            done(`client: ${error.field} ${error.reason}`);
          } else {
            expect(error).toBeInstanceOf(APIError);
            expect([400, 422]).toContain((error as APIError).status);
            done(`server: ${(error as APIError).status} (${broken.what})`);
          }
        });
      });
    }
  });
}
