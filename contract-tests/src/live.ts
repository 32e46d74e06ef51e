/**
 * The contract suite against a live service (CONTRACT_TARGET=live). Requests go straight to the service, never
 * through Prism, and only with inputs a real account can answer:
 *
 * - path parameters from the service's own answers (`sources.ts`); where the account holds no such record the
 *   check is skipped `no <resource> in the live account`. Lookups run for several records (CONTRACT_SAMPLE,
 *   default 10), spread over the first page of their list and, where the list has one, the next page; every
 *   record of every list page read is validated;
 * - operations by safety class (`x-safety`): reads always; writes only with CONTRACT_ALLOW_WRITES naming the
 *   service, and then only inside the lifecycles of records the run creates itself (`lifecycles.ts`, with the
 *   record families of the service's profile); dangerous operations only as steps of such a lifecycle, each named
 *   in CONTRACT_ALLOW_DANGEROUS;
 * - within the budget of the service's profile (`live-budget.ts`).
 *
 * Checks, named as contract-testing tools name them: not_a_server_error, status_code_conformance,
 * content_type_conformance, response_headers_conformance, response_schema_conformance,
 * positive_data_acceptance, and for reads negative_data_rejection (a spec-breaking request sent past the
 * client's validator) and ignored_auth (the same read without credentials). Every check ends in one verdict:
 *
 * - fail: a promise of the contract is broken: a documented answer to a valid request does not match its status,
 *   content type, headers or schema; a 5xx; an answer without credentials; a 404 to the lookup of a record the
 *   service itself listed;
 * - warning: the server is more lenient than the spec's input rules (accepts a broken request), or answers a
 *   request the suite constructed with a 4xx;
 * - inconclusive: the request rested on a guess (an `x-provisional` operation, a link marked `x-contract-guess`,
 *   a body made up without a published example), or a 429 outlasted the budget's wait.
 *
 * A run fails on fails only; CONTRACT_STRICT=1 fails it on warnings too.
 *
 * Raw requests (negative_data_rejection, ignored_auth) are sent by the client's own operation function through
 * its own client, with only the input rules lifted: the same path and query serialisation and auth headers as
 * a user's call.
 */
import type { OperationClient } from '@agent-apis/core';
import { type OpenApiDocument, resolveRef } from '@agent-apis/specs/openapi';
import { describe, expect, it } from 'vitest';
import { type CoverageRecorder, type Outcome, strictMode } from './coverage.ts';
import { dangerousOperations, planLifecycles } from './lifecycles.ts';
import { LiveBudget } from './live-budget.ts';
import { operationFunction, peekBody, type ServiceProfile } from './profile.ts';
import { withoutCredentials, withoutInputRules } from './raw-requests.ts';
import { atIndex, describeInput, listAt, recordsIn, sampleSize, spread, spreadPages } from './sampling.ts';
import type { SpecSchemaValidator } from './schema-validator.ts';
import { atPointer } from './sources.ts';
import type { ContractOperation, ContractSpec } from './spec.ts';
import type { ServiceTarget } from './targets.ts';
import { breakInput, type CallInput, sampleInput } from './values.ts';
import { type Basis, merge, noVerdicts, type Verdicts, worst } from './verdicts.ts';

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

/** The operation's documented response for `status` (or `default`), as the spec declares it. */
function documentedResponse(document: OpenApiDocument, operation: ContractOperation, status: number) {
  const item = (document.paths?.[operation.path] ?? {}) as Record<string, { responses?: Record<string, unknown> }>;
  const responses = item[operation.method.toLowerCase()]?.responses ?? {};
  const raw = responses[String(status)] ?? responses.default;
  return raw === undefined
    ? undefined
    : (resolveRef(document, raw as never) as { content?: Record<string, unknown>; headers?: Record<string, unknown> });
}

interface PathSample {
  values: Record<string, unknown>;
  basis: Basis;
}

export interface LiveSuiteOptions {
  profile: ServiceProfile;
  spec: ContractSpec;
  target: Target;
  schemas: SpecSchemaValidator;
  recorder: CoverageRecorder;
}

export function defineLiveSuite(options: LiveSuiteOptions): void {
  const { profile, spec, target, schemas, recorder } = options;
  const { service, validators } = profile;
  const budget = new LiveBudget(profile.budget);
  recorder.attach('budget', budget.figures);
  const byId = new Map(spec.operations.map((op) => [op.id, op]));
  const writesAllowed = writeServices().has(service);
  const strict = strictMode();
  const samplesWanted = sampleSize();
  const quota = profile.budget.quota;

  const lifecycles = planLifecycles({
    service,
    spec,
    profile: profile.lifecycles,
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
    const fn = operationFunction(profile, operation.id);
    try {
      return { result: await fn(profile.createClient(target, fetch), { ...input, maxRetries: 0 }), seen };
    } catch (error) {
      return { error, seen };
    }
  };

  /**
   * A request sent past the client's input rules, by the client's own operation function (same URL, query and
   * auth headers as a user's call); without credentials when `credentials` is false. The status answered, or why
   * nothing was sent.
   */
  const raw = async (operation: ContractOperation, input: CallInput, credentials: boolean) => {
    let status: number | undefined;
    let removed = 0;
    const fetch: typeof globalThis.fetch = async (request, init) => {
      let response: Response;
      if (credentials) response = await budget.fetch(request, init);
      else {
        const bare = await withoutCredentials(request, init);
        removed = bare.removed;
        response = await budget.fetch(bare.url, bare.init);
      }
      status = response.status;
      return response;
    };
    const client = profile.createClient(target, fetch);
    const lenient: OperationClient = {
      request: (op, callOptions) => client.request(withoutInputRules(op), callOptions),
    };
    try {
      await operationFunction(profile, operation.id)(lenient, { ...input, maxRetries: 0 });
    } catch (error) {
      if (status === undefined) return { problem: `not sent: ${(error as Error).message}`, removed };
    }
    return { status: status as number, removed };
  };

  const inputFor = (operation: ContractOperation, coverage: 'required' | 'all', path: Record<string, unknown>) => {
    const input: CallInput = { ...sampleInput(spec.document, operation, coverage), path };
    // A published example is what the service's own documentation sends: better than a body made up from the schema.
    if (input.body !== undefined && operation.bodyExample) input.body = structuredClone(operation.bodyExample.value);
    return input;
  };

  /** What a request to `operation` with `input` rested on. */
  const basisOf = (operation: ContractOperation, input: CallInput, path: Basis): Basis => {
    const guesses = [
      operation.provisional ? 'the operation is x-provisional (its spec is itself a guess)' : undefined,
      path.guess,
      input.body !== undefined && !operation.bodyExample
        ? 'its body was made up from the schema (no published example)'
        : undefined,
    ].filter(Boolean);
    return {
      ...(guesses.length ? { guess: guesses.join('; ') } : {}),
      ...(path.listed ? { listed: path.listed } : {}),
      sent: describeInput(input),
    };
  };

  /**
   * The response checks of one answer, each recorded with its verdict; returns the verdicts. `basis` says what
   * the request rested on: a rejection of a guess is inconclusive, a 404 to a listed record a fail.
   */
  const examine = (
    operation: ContractOperation,
    outcome: Awaited<ReturnType<typeof call>>,
    label: string,
    basis: Basis,
  ): Verdicts => {
    const verdicts = noVerdicts();
    const record = (check: string, verdict: Exclude<Outcome, 'skipped'>, detail?: string) => {
      if (verdict === 'passed') {
        recorder.verdict(operation.id, check, 'passed', detail);
        return;
      }
      const message = `${operation.id}: ${check}: ${detail}`;
      recorder.verdict(operation.id, check, verdict, message);
      verdicts[verdict === 'failed' ? 'fail' : verdict].push(message);
    };
    const seen = outcome.seen;
    if (!seen) {
      record('positive_data_acceptance', 'failed', `no answer (${(outcome as { error?: Error }).error?.message})`);
      return verdicts;
    }
    const { status } = seen;
    const documented = documentedResponse(spec.document, operation, status);
    record('not_a_server_error', status >= 500 ? 'failed' : 'passed', status >= 500 ? `answered ${status}` : undefined);
    if (status >= 500) return verdicts;
    if (status === 429) {
      record('positive_data_acceptance', 'inconclusive', `${label}: rate limited (429) beyond the run's wait`);
      return verdicts;
    }
    if (status >= 300) {
      const sent = basis.sent ? `, sent ${basis.sent}` : '';
      const what = `a valid request (${label}${sent}) got ${status}${documented ? '' : ', a status the spec does not document'}`;
      if (basis.guess) record('positive_data_acceptance', 'inconclusive', `${what}, but ${basis.guess}`);
      else if (status === 404 && basis.listed)
        record('positive_data_acceptance', 'failed', `${what}: the record was listed by ${basis.listed}`);
      else record('positive_data_acceptance', 'warning', `${what} (a request the suite constructed)`);
      if (!documented && !basis.guess)
        record('status_code_conformance', 'warning', `status ${status} is not documented`);
      return verdicts;
    }
    record('positive_data_acceptance', 'passed');
    record(
      'status_code_conformance',
      documented ? 'passed' : 'failed',
      documented ? undefined : `status ${status} is not documented`,
    );
    if (!documented) return verdicts;
    const types = Object.keys(documented.content ?? {});
    const type = seen.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    const typeOk = types.length === 0 || types.some((documentedType) => mediaTypeMatches(documentedType, type));
    record(
      'content_type_conformance',
      typeOk ? 'passed' : 'failed',
      typeOk ? undefined : `content type ${type || '(none)'}, documented ${types.join(', ')}`,
    );
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
    const problems = schemas.validateResponse(operation.method, operation.path, status, seen.body);
    const zod = 'result' in outcome ? validators[operation.id]?.response?.safeParse(outcome.result) : undefined;
    const lines = [
      ...problems.map((p) => `${p.path} ${p.message}`),
      ...(zod?.error?.issues ?? []).map((issue) => `${issue.path.join('.')} ${issue.message} (zod)`),
      ...('error' in outcome && !problems.length
        ? [`client refused the answer: ${(outcome.error as Error).message}`]
        : []),
    ];
    const records = recordsIn(seen.body);
    recorder.countRecords(operation.id, records);
    record(
      'response_schema_conformance',
      lines.length ? 'failed' : 'passed',
      lines.length ? `response body (${label}) ${lines.join('; ')}` : undefined,
    );
    return verdicts;
  };

  /** The fails of one answer's checks (what a write lifecycle asserts). */
  const checkAnswer = (operation: ContractOperation, outcome: Awaited<ReturnType<typeof call>>, label: string) =>
    examine(operation, outcome, label, {}).fail;

  // Answers of reads by their required inputs, shared by the operation's own checks and by every lookup that takes
  // ids from them; each answer is examined once, and its verdicts shared.
  const answers = new Map<string, Promise<{ outcome: Awaited<ReturnType<typeof call>>; verdicts: Verdicts }>>();
  const answerOf = (
    operation: ContractOperation,
    input: CallInput,
    label: string,
    basis: Basis,
  ): Promise<{ outcome: Awaited<ReturnType<typeof call>>; verdicts: Verdicts }> => {
    const key = `${operation.id} ${JSON.stringify(input)}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = call(operation, input).then((outcome) => {
        if (quota && outcome.seen && outcome.seen.status < 300) budget.spendScans(quota.cost(input));
        return { outcome, verdicts: examine(operation, outcome, label, basis) };
      });
      answers.set(key, answer);
    }
    return answer;
  };

  /** The input of the next page of a list, when the list pages (`page`, else `offset`) and `count` filled a page. */
  const nextPage = (operation: ContractOperation, input: CallInput, count: number): CallInput | undefined => {
    const query = operation.parameters.filter((p) => p.in === 'query');
    const limit = query.find((p) => p.name === 'limit');
    const size = Number(input.query?.limit ?? limit?.schema.default);
    if (!Number.isFinite(size) || count < size || count === 0) return undefined;
    if (query.some((p) => p.name === 'page')) {
      return { ...input, query: { ...input.query, page: Number(input.query?.page ?? 1) + 1 } };
    }
    if (query.some((p) => p.name === 'offset')) {
      return { ...input, query: { ...input.query, offset: Number(input.query?.offset ?? 0) + count } };
    }
    return undefined;
  };

  /**
   * Up to `wanted` real path-value sets for `operation` (lookups spread over the first page of their list and the
   * next one), or why there are none. Every list page read is examined on the way.
   */
  const pathSamples = async (
    operation: ContractOperation,
    wanted: number,
    found: Verdicts,
  ): Promise<PathSample[] | string> => {
    let samples: PathSample[] = [{ values: {}, basis: {} }];
    const pathParameters = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const done = new Set<string>();
    for (const name of pathParameters) {
      if (done.has(name)) continue;
      const source = operation.sources[name];
      if (!source) return `no source for path parameter ${name}`;
      done.add(name);
      if (source.kind === 'enum') {
        for (const sample of samples) sample.values[name] = source.value;
        continue;
      }
      if (source.kind === 'env') {
        const value = process.env[source.env];
        if (!value) return `no ${source.resource} configured (${source.env})`;
        for (const sample of samples) sample.values[name] = value;
        continue;
      }
      // This parameter and its siblings (same source, same carried values) come from one entry of one answer.
      const siblings = pathParameters.filter((other) => {
        const s = operation.sources[other];
        return (
          !done.has(other) &&
          s?.kind === 'response' &&
          s.from === source.from &&
          JSON.stringify(s.carry) === JSON.stringify(source.carry)
        );
      });
      for (const sibling of siblings) done.add(sibling);
      const pointers = { [name]: source.pointer } as Record<string, string>;
      for (const sibling of siblings) {
        const s = operation.sources[sibling];
        if (s?.kind === 'response') pointers[sibling] = s.pointer;
      }
      const from = byId.get(source.from);
      if (!from) return `source operation ${source.from} is not in the spec`;
      const fromParameters = from.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      const carried = fromParameters.every((p) => p in source.carry);
      const next: PathSample[] = [];
      let reason = `no ${source.resource} in the live account`;
      for (const sample of samples) {
        const carry = Object.fromEntries(
          Object.entries(source.carry)
            .filter(([, targetName]) => sample.values[targetName] !== undefined)
            .map(([fromName, targetName]) => [fromName, sample.values[targetName]]),
        );
        let fromPaths: Record<string, unknown>[];
        if (carried || fromParameters.length === 0) fromPaths = [carry];
        else {
          const own = await pathSamples(from, wanted, found);
          if (typeof own === 'string') return own;
          fromPaths = [
            ...new Map(own.map((o) => [JSON.stringify({ ...o.values, ...carry }), { ...o.values, ...carry }])).values(),
          ];
        }
        const pages: PathSample[][] = [];
        for (const fromPath of fromPaths) {
          let input: CallInput | undefined = inputFor(from, 'required', fromPath);
          for (let page = 1; input && page <= 2; page++) {
            const { outcome, verdicts } = await answerOf(from, input, page === 1 ? 'required' : `page ${page}`, {});
            merge(found, verdicts);
            if ('error' in outcome) {
              reason = `its source ${source.from} failed: ${(outcome.error as Error).message}`;
              break;
            }
            const first = Object.values(pointers)[0] as string;
            const entries = listAt(outcome.result, first);
            const candidates: PathSample[] = [];
            pages.push(candidates);
            entries.forEach((_, index) => {
              const values: Record<string, unknown> = { ...sample.values };
              for (const [parameter, pointer] of Object.entries(pointers)) {
                values[parameter] = atPointer(outcome.result, atIndex(pointer, index));
              }
              if (Object.keys(pointers).some((p) => values[p] === undefined || values[p] === null || values[p] === ''))
                return;
              const where = `${source.from}${page > 1 ? ` page ${page}` : ''} entry ${index}`;
              candidates.push({
                values,
                basis:
                  source.declared === 'guess'
                    ? { guess: `its ${name} is a guess (${where}, link marked x-contract-guess)` }
                    : { ...sample.basis, listed: where },
              });
            });
            input = nextPage(from, input, entries.length);
          }
        }
        next.push(...spreadPages(pages, wanted));
      }
      samples = spread(next, wanted);
      if (samples.length === 0) return reason;
    }
    return samples;
  };

  const skipChecks = (operation: ContractOperation, checks: readonly string[], reason: string) => {
    for (const check of checks) recorder.skip(operation.id, check, reason);
  };

  const coveragesOf = (operation: ContractOperation) =>
    operation.parameters.some((p) => !p.required && p.in !== 'path') || operation.body
      ? (['required', 'all'] as const)
      : (['required'] as const);

  /** The spec-breaking request a read's negative_data_rejection sends, or undefined. */
  const negativeFor = (operation: ContractOperation, path: Record<string, unknown>) => {
    const broken = breakInput(spec.document, operation);
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
          ...sampleInput(spec.document, operation, 'required'),
          path: { ...path, [brokenPath.name]: 'not-a-number' },
        },
        what: `path.${brokenPath.name} not a number (sent "not-a-number")`,
      };
    if (broken?.what === 'body of the wrong type') return { input: broken.input, what: `${broken.what}${sent}` };
    return undefined;
  };

  // A metered service (profile `quota`): which calls spend the run's units, fixed before any runs: every read's
  // required-inputs call in spec order, then the all-inputs calls, then the negative checks (a lenient server
  // may answer, and bill, a broken request), while the budget lasts. Nothing unplanned is ever sent.
  const plan = new Set<string>();
  if (quota) {
    const reads = spec.operations.filter((op) => op.safety === 'read');
    for (const coverage of ['required', 'all'] as const) {
      for (const operation of reads.filter((op) => coveragesOf(op).includes(coverage as never))) {
        if (budget.reserveScans(quota.cost(inputFor(operation, coverage, {})))) plan.add(`${operation.id} ${coverage}`);
      }
    }
    for (const operation of reads) {
      const negative = negativeFor(operation, {});
      if (negative && budget.reserveScans(quota.cost(negative.input))) plan.add(`${operation.id} negative`);
    }
  }
  const planned = (operation: ContractOperation, what: string) => !quota || plan.has(`${operation.id} ${what}`);
  const quotaSpent = () => `${quota?.unit} budget spent (${quota?.env}=${budget.figures.scanBudget})`;

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
        const found = noVerdicts();
        const samples = await pathSamples(operation, samplesWanted, found);
        if (typeof samples === 'string') {
          skipChecks(operation, ['success:required', 'success:all'], samples);
          expect(found.fail, `${operation.id}: its source's answers`).toEqual([]);
          context.skip(samples);
          return;
        }
        const [first] = samples as [PathSample, ...PathSample[]];
        for (const coverage of coverages) {
          const check = `success:${coverage}`;
          if (!planned(operation, coverage)) {
            recorder.skip(operation.id, check, quotaSpent());
            continue;
          }
          const own = noVerdicts();
          // The required inputs for every sampled record; the optional ones once.
          for (const sample of coverage === 'required' ? samples : [first]) {
            const input = inputFor(operation, coverage, sample.values);
            // A 404 fails the plain lookup of a listed record; with optional inputs the suite made up it only warns.
            const { listed, ...unlisted } = sample.basis;
            const basis = basisOf(operation, input, coverage === 'required' ? sample.basis : unlisted);
            if (coverage === 'required') merge(own, (await answerOf(operation, input, coverage, basis)).verdicts);
            else {
              const outcome = await call(operation, input);
              if (quota && outcome.seen && outcome.seen.status < 300) budget.spendScans(quota.cost(input));
              merge(own, examine(operation, outcome, coverage, basis));
            }
          }
          const verdict = worst(own);
          const records = hasPath ? `${samples.length} record(s)` : undefined;
          recorder.verdict(
            operation.id,
            check,
            verdict.outcome,
            verdict.lines.length ? verdict.lines.join(' | ') : coverage === 'required' ? records : undefined,
          );
          merge(found, own);
        }
        if (coverages.length === 1) recorder.skip(operation.id, 'success:all', 'the operation takes no optional input');

        const negative = negativeFor(operation, first.values);
        if (!negative)
          recorder.skip(operation.id, 'negative_data_rejection', 'no input of this read can break the spec');
        else if (!planned(operation, 'negative'))
          // A server that accepts the broken request would spend units nobody budgeted.
          recorder.skip(operation.id, 'negative_data_rejection', quotaSpent());
        else {
          const answer = await raw(operation, negative.input, true);
          const check = 'negative_data_rejection';
          const note = (text: string) => `${operation.id}: ${check}: ${text}`;
          if (answer.status === undefined) {
            recorder.verdict(operation.id, check, 'failed', note(answer.problem ?? 'not sent'));
            found.fail.push(note(answer.problem ?? 'not sent'));
          } else if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
            recorder.verdict(operation.id, check, 'passed', `${answer.status} (${negative.what})`);
          } else if (answer.status >= 500) {
            recorder.verdict(operation.id, check, 'failed', note(`${negative.what}: answered ${answer.status}`));
            found.fail.push(note(`${negative.what}: answered ${answer.status}`));
          } else {
            if (quota && answer.status < 300) budget.spendScans(quota.cost(negative.input));
            const text = note(
              answer.status === 429
                ? `${negative.what}: rate limited (429)`
                : `${negative.what}: the server accepted it, answered ${answer.status} (more lenient than the spec)`,
            );
            const verdict = answer.status === 429 || operation.provisional ? 'inconclusive' : 'warning';
            recorder.verdict(
              operation.id,
              check,
              verdict,
              operation.provisional && answer.status !== 429 ? `${text}; the operation is x-provisional` : text,
            );
            found[verdict === 'warning' ? 'warning' : 'inconclusive'].push(text);
          }
        }

        const secured = Object.keys(target.credentials).length > 0 && operation.secured;
        if (!secured) recorder.skip(operation.id, 'ignored_auth', 'the operation needs no credentials');
        else {
          const check = 'ignored_auth';
          const input = inputFor(operation, 'required', first.values);
          const basis = basisOf(operation, input, first.basis);
          const answer = await raw(operation, input, false);
          const note = (text: string) => `${operation.id}: ${check}: a request without credentials ${text}`;
          if (answer.status === undefined) {
            recorder.verdict(operation.id, check, 'failed', note(`was not sent: ${answer.problem}`));
            found.fail.push(note(`was not sent: ${answer.problem}`));
          } else if (answer.removed === 0) {
            recorder.skip(operation.id, check, 'the client sent no credential header to leave out');
          } else if (answer.status === 401 || answer.status === 403) {
            recorder.verdict(operation.id, check, 'passed', String(answer.status));
          } else if (answer.status < 300 || answer.status >= 500) {
            const text = note(
              `got ${answer.status}${answer.status < 300 ? ' (SECURITY FINDING: answered without credentials)' : ''}`,
            );
            recorder.verdict(operation.id, check, 'failed', text);
            found.fail.push(text);
          } else {
            const text = note(`got ${answer.status}, not 401/403`);
            const verdict = basis.guess || answer.status === 429 ? 'inconclusive' : 'warning';
            recorder.verdict(operation.id, check, verdict, basis.guess ? `${text}; ${basis.guess}` : text);
            found[verdict === 'warning' ? 'warning' : 'inconclusive'].push(text);
          }
        }
        expect(found.fail, `${operation.id} live checks (fail)`).toEqual([]);
        if (strict) expect(found.warning, `${operation.id} live checks (warnings, CONTRACT_STRICT=1)`).toEqual([]);
      });
    }
  });

  lifecycles.define({ call, checkAnswer, recorder });
}
