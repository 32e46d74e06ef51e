/**
 * The contract suite against a live service (CONTRACT_TARGET=live). Requests go straight to the service, never
 * through Prism, and only with inputs a real account can answer:
 *
 * - path parameters from the service's own answers (`sources.ts`); where the account holds no such record the
 *   check is skipped `no <resource> in the live account`;
 * - operations by safety class (`x-safety`): reads always; writes only with CONTRACT_ALLOW_WRITES naming the
 *   service, and then only inside the lifecycles of records the run creates itself (`lifecycles.ts`); dangerous
 *   operations only as steps of such a lifecycle, each named in CONTRACT_ALLOW_DANGEROUS;
 * - within the service's budget (`live-budget.ts`).
 *
 * Checks, named as contract-testing tools name them: not_a_server_error, status_code_conformance,
 * content_type_conformance, response_headers_conformance, response_schema_conformance,
 * positive_data_acceptance, and for reads negative_data_rejection (a spec-breaking request sent raw, past the
 * client's validator, must get a 4xx) and ignored_auth (the same read without credentials must get 401/403).
 */
import { type OpenApiDocument, resolveRef } from '@agent-apis/specs/openapi';
import type { ServiceName } from '@agent-apis/specs/services';
import { describe, expect, it } from 'vitest';
import type { CoverageRecorder } from './coverage.ts';
import { dangerousOperations, type LifecycleProfile, planLifecycles } from './lifecycles.ts';
import { LiveBudget } from './live-budget.ts';
import type { SpecSchemaValidator } from './schema-validator.ts';
import { atPointer, type InputSource, pathInputSources } from './sources.ts';
import type { ContractOperation, ContractSpec } from './spec.ts';
import { type ClientFactory, peekBody, type ResponseValidators } from './suite.ts';
import type { ServiceTarget } from './targets.ts';
import { breakInput, type CallInput, sampleInput } from './values.ts';

export const LIVE_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'positive_data_acceptance',
  'negative_data_rejection',
  'ignored_auth',
] as const;

interface Seen {
  status: number;
  headers: Headers;
  body: unknown;
}

type Target = ServiceTarget & { baseUrl: string };

/**
 * The services CONTRACT_ALLOW_WRITES names (`store`, `store,directory`). The old global switch (`1`, `true`) is
 * refused with an error rather than read as "every service".
 */
export function writeServices(env: Record<string, string | undefined> = process.env): Set<string> {
  const names = (env.CONTRACT_ALLOW_WRITES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !['directory', 'store', 'trust'].includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `CONTRACT_ALLOW_WRITES names services, one by one (e.g. CONTRACT_ALLOW_WRITES=store); not ${unknown.join(', ')}`,
    );
  }
  return new Set(names);
}

function authHeaders(service: ServiceName, credentials: Record<string, string>): Record<string, string> {
  if (service === 'trust' && credentials.apiKey) return { 'X-API-Key': credentials.apiKey };
  if (service === 'store' && credentials.accessToken) return { authorization: `Bearer ${credentials.accessToken}` };
  if (service === 'store' && credentials.login) {
    return {
      authorization: `Basic ${Buffer.from(`${credentials.login}:${credentials.authToken}`).toString('base64')}`,
    };
  }
  return {};
}

function expandPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      params.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The operation's documented response for `status` (or `default`), as the spec declares it. */
function documentedResponse(document: OpenApiDocument, operation: ContractOperation, status: number) {
  const item = (document.paths?.[operation.path] ?? {}) as Record<string, { responses?: Record<string, unknown> }>;
  const responses = item[operation.method.toLowerCase()]?.responses ?? {};
  const raw = responses[String(status)] ?? responses.default;
  return raw === undefined
    ? undefined
    : (resolveRef(document, raw as never) as { content?: Record<string, unknown>; headers?: Record<string, unknown> });
}

/** How many scans a trust call spends: one per domain or target in a batch, else one. */
function scansOf(input: CallInput): number {
  const body = input.body as { domains?: unknown[]; targets?: unknown[] } | undefined;
  return body?.domains?.length ?? body?.targets?.length ?? 1;
}

export interface LiveSuiteOptions {
  service: ServiceName;
  spec: ContractSpec;
  target: Target;
  createClient: ClientFactory;
  validators: ResponseValidators;
  schemas: SpecSchemaValidator;
  recorder: CoverageRecorder;
  /** The service's record families for write runs (`lifecycles.ts`). */
  lifecycles?: LifecycleProfile;
}

export function defineLiveSuite(options: LiveSuiteOptions): void {
  const { service, spec, target, createClient, validators, schemas, recorder, lifecycles: profile } = options;
  const budget = new LiveBudget(service);
  recorder.attach('budget', budget.figures);
  const sources = pathInputSources(spec.document);
  const byId = new Map(spec.operations.map((op) => [op.id, op]));
  const writesAllowed = writeServices().has(service);
  const auth = authHeaders(service, target.credentials);

  const lifecycles = planLifecycles({
    service,
    spec,
    profile,
    writesAllowed,
    dangerousAllowed: dangerousOperations(),
  });

  /** Calls an operation through the client; returns what it resolved to or threw, and the last answer seen. */
  const call = async (operation: ContractOperation, input: CallInput) => {
    let seen: Seen | undefined;
    const fetch: typeof globalThis.fetch = async (request, init) => {
      const response = await budget.fetch(request, init);
      seen = { status: response.status, headers: response.headers, body: await peekBody(response) };
      return response;
    };
    const fn = createClient(target, fetch).api[operation.id];
    if (!fn) throw new Error(`the ${service} client has no operation ${operation.id}`);
    try {
      return { result: await fn({ ...input, maxRetries: 0 }), seen };
    } catch (error) {
      return { error, seen };
    }
  };

  /** A request sent as is, past the client and its validator. */
  const raw = async (operation: ContractOperation, input: CallInput, headers: Record<string, string>) => {
    const url = `${target.baseUrl}${expandPath(operation.path, input.path ?? {})}${queryString(input.query)}`;
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const response = await budget.fetch(url, {
      method: operation.method,
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body } : {}),
    });
    await response.body?.cancel();
    return response.status;
  };

  // Answers of source operations, shared by every check that needs their ids.
  const answers = new Map<string, Promise<unknown>>();
  const answerOf = (operation: ContractOperation, path: Record<string, unknown>) => {
    const key = `${operation.id} ${JSON.stringify(path)}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = call(operation, { ...sampleInput(spec.document, operation, 'required'), path }).then((outcome) => {
        if ('error' in outcome) throw outcome.error;
        return outcome.result;
      });
      answers.set(key, answer);
    }
    return answer;
  };

  /** Real path parameters for `operation`, or why there are none. */
  const resolvePath = async (operation: ContractOperation): Promise<Record<string, unknown> | string> => {
    const own = sources.get(operation.id) ?? {};
    const values: Record<string, unknown> = {};
    for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
      const source: InputSource | undefined = own[parameter.name];
      if (!source) return `no source for path parameter ${parameter.name}`;
      if (source.kind === 'enum') values[parameter.name] = source.value;
      else if (source.kind === 'env') {
        const value = process.env[source.env];
        if (!value) return `no ${source.resource} configured (${source.env})`;
        values[parameter.name] = value;
      } else {
        const from = byId.get(source.from);
        if (!from) return `source operation ${source.from} is not in the spec`;
        const fromPath = await resolvePath(from);
        if (typeof fromPath === 'string') return fromPath;
        for (const [fromName, targetName] of Object.entries(source.carry)) {
          if (values[targetName] !== undefined) fromPath[fromName] = values[targetName];
        }
        let answer: unknown;
        try {
          answer = await answerOf(from, fromPath);
        } catch (error) {
          return `its source ${source.from} failed: ${(error as Error).message}`;
        }
        const value = atPointer(answer, source.pointer);
        if (value === undefined || value === null || value === '') return `no ${source.resource} in the live account`;
        values[parameter.name] = value;
      }
    }
    return values;
  };

  /** Runs the response checks on one answer; returns the failures as "operation: check: detail" lines. */
  const checkAnswer = (operation: ContractOperation, outcome: Awaited<ReturnType<typeof call>>, label: string) => {
    const failures: string[] = [];
    const record = (check: string, problem: string | undefined, note?: string) => {
      const done = recorder.begin(operation.id, check);
      if (problem) {
        const message = `${operation.id}: ${check}: ${problem}`;
        recorder.fail(operation.id, check, message);
        failures.push(message);
      } else done(note);
    };
    const seen = outcome.seen;
    if (!seen) {
      record('positive_data_acceptance', `no answer (${(outcome as { error?: Error }).error?.message})`);
      return failures;
    }
    const documented = documentedResponse(spec.document, operation, seen.status);
    record('not_a_server_error', seen.status >= 500 ? `answered ${seen.status}` : undefined);
    record('status_code_conformance', documented ? undefined : `status ${seen.status} is not documented`);
    record(
      'positive_data_acceptance',
      seen.status >= 200 && seen.status < 300 ? undefined : `a valid request (${label}) got ${seen.status}`,
    );
    if (!documented) return failures;
    const types = Object.keys(documented.content ?? {});
    const type = seen.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    record(
      'content_type_conformance',
      types.length === 0 || types.includes(type)
        ? undefined
        : `content type ${type || '(none)'}, documented ${types.join(', ')}`,
    );
    const missing = Object.keys(documented.headers ?? {}).filter((name) => !seen.headers.has(name));
    record('response_headers_conformance', missing.length ? `missing header(s) ${missing.join(', ')}` : undefined);
    if (seen.status >= 200 && seen.status < 300) {
      const problems = schemas.validateResponse(operation.method, operation.path, seen.status, seen.body);
      const zod = 'result' in outcome ? validators[operation.id]?.response?.safeParse(outcome.result) : undefined;
      const lines = [
        ...problems.map((p) => `${p.path} ${p.message}`),
        ...(zod?.error?.issues ?? []).map((issue) => `${issue.path.join('.')} ${issue.message} (zod)`),
        ...('error' in outcome && !problems.length
          ? [`client refused the answer: ${(outcome.error as Error).message}`]
          : []),
      ];
      record('response_schema_conformance', lines.length ? `response body ${lines.join('; ')}` : undefined);
    }
    return failures;
  };

  const skipChecks = (operation: ContractOperation, checks: readonly string[], reason: string) => {
    for (const check of checks) recorder.skip(operation.id, check, reason);
  };

  const coveragesOf = (operation: ContractOperation) =>
    operation.parameters.some((p) => !p.required && p.in !== 'path') || operation.body
      ? (['required', 'all'] as const)
      : (['required'] as const);
  // Trust: which checks spend the run's scans, fixed before any runs: every read's required-inputs call in spec
  // order, then the all-inputs calls, while the budget lasts.
  const scanPlan = new Set<string>();
  if (service === 'trust') {
    const reads = spec.operations.filter((op) => op.safety === 'read');
    for (const coverage of ['required', 'all'] as const) {
      for (const operation of reads.filter((op) => coveragesOf(op).includes(coverage as never))) {
        const cost = scansOf(sampleInput(spec.document, operation, coverage));
        if (budget.reserveScans(cost)) scanPlan.add(`${operation.id} ${coverage}`);
      }
    }
  }

  describe.concurrent(`${service} contract (live, ${target.baseUrl})`, () => {
    for (const operation of spec.operations) {
      const safety = operation.safety;
      const hasPath = operation.parameters.some((p) => p.in === 'path');
      const title = `${operation.id} (${operation.method} ${operation.path}, ${safety})`;
      if (safety !== 'read') {
        // Writes and dangerous operations run only inside the lifecycles of records the run creates.
        const reason = lifecycles.skipReason(operation);
        if (reason) {
          skipChecks(operation, ['success:required'], reason);
          it.skip(`${title} — skipped: ${reason}`, () => expect.unreachable());
        }
        continue;
      }
      const coverages = coveragesOf(operation);
      const skipNote = hasPath ? '; skipped when the live account holds no such record' : '';
      it(`${title}: ${LIVE_CHECKS.join(', ')}${skipNote}`, async (context) => {
        const path = await resolvePath(operation);
        if (typeof path === 'string') {
          skipChecks(operation, ['success:required', 'success:all'], path);
          context.skip(path);
          return;
        }
        const failures: string[] = [];
        for (const coverage of coverages) {
          const input = { ...sampleInput(spec.document, operation, coverage), path };
          const check = `success:${coverage}`;
          if (service === 'trust' && !scanPlan.has(`${operation.id} ${coverage}`)) {
            recorder.skip(
              operation.id,
              check,
              `trust scan budget spent (CONTRACT_TRUST_BUDGET=${budget.figures.scanBudget})`,
            );
            continue;
          }
          const done = recorder.begin(operation.id, check);
          const outcome = await call(operation, input);
          const found = checkAnswer(operation, outcome, coverage);
          if (service === 'trust' && outcome.seen && outcome.seen.status < 300) budget.spendScans(scansOf(input));
          if (found.length) {
            recorder.fail(operation.id, check, found.join(' | '));
            failures.push(...found);
          } else done();
        }
        if (coverages.length === 1) recorder.skip(operation.id, 'success:all', 'the operation takes no optional input');

        const broken = breakInput(spec.document, operation);
        const brokenPath = operation.parameters.find(
          (p) => p.in === 'path' && ['integer', 'number'].includes(String(p.schema.type)),
        );
        const negative =
          broken?.what.startsWith('query.') || broken?.what.startsWith('required query')
            ? { input: { ...broken.input, path }, what: broken.what }
            : brokenPath
              ? {
                  input: {
                    ...sampleInput(spec.document, operation, 'required'),
                    path: { ...path, [brokenPath.name]: 'not-a-number' },
                  },
                  what: `path.${brokenPath.name} not a number`,
                }
              : broken?.what === 'body of the wrong type'
                ? { input: broken.input, what: broken.what }
                : undefined;
        const unbudgeted = service === 'trust' && !coverages.some((c) => scanPlan.has(`${operation.id} ${c}`));
        if (!negative)
          recorder.skip(operation.id, 'negative_data_rejection', 'no input of this read can break the spec');
        else if (unbudgeted)
          // A server that wrongly accepts the broken request would spend a scan nobody budgeted.
          recorder.skip(operation.id, 'negative_data_rejection', 'trust scan budget spent');
        else {
          const done = recorder.begin(operation.id, 'negative_data_rejection');
          const status = await raw(operation, negative.input, auth);
          if (status >= 400 && status < 500) done(`${status} (${negative.what})`);
          else {
            const message = `${operation.id}: negative_data_rejection: ${negative.what} was answered ${status}, not a 4xx`;
            recorder.fail(operation.id, 'negative_data_rejection', message);
            failures.push(message);
          }
        }

        const secured = Object.keys(auth).length > 0 && operation.secured;
        if (!secured) recorder.skip(operation.id, 'ignored_auth', 'the operation needs no credentials');
        else {
          const done = recorder.begin(operation.id, 'ignored_auth');
          const input = { ...sampleInput(spec.document, operation, 'required'), path };
          const status = await raw(operation, input, {});
          if (status === 401 || status === 403) done(String(status));
          else {
            const finding = status < 300 ? 'SECURITY FINDING: answered without credentials' : 'not 401/403';
            const message = `${operation.id}: ignored_auth: a request without credentials got ${status} (${finding})`;
            recorder.fail(operation.id, 'ignored_auth', message);
            failures.push(message);
          }
        }
        expect(failures, `${operation.id} live checks`).toEqual([]);
      });
    }
  });

  lifecycles.define({ call, checkAnswer, recorder });
}
