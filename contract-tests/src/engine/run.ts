/**
 * The run context of one service's live run: its settings (read once, each within its range), its budget, its
 * evidence ledger and progress, and the two ways it sends a request: `call` (the client's own operation function,
 * as a user calls it) and `raw` (the same call with the input rules lifted, or without credentials). The named
 * checks (`baseline.ts`, `listing.ts`, `negative.ts`, `auth.ts`) take this context.
 */
import type { OperationClient } from '@agent-apis/core';
import type { ContractOperation, ContractSpec } from '../contract-spec/spec.ts';
import type { CoverageRecorder } from '../evidence/coverage.ts';
import { floorFromEnv } from '../evidence/evidence.ts';
import { EvidenceLedger } from '../evidence/ledger.ts';
import type { Basis } from '../evidence/verdicts.ts';
import { strictMode } from '../settings.ts';
import { type Dispatch, LiveBudget, NotSentError } from './budget.ts';
import { operationFunction, peekBody, type ServiceProfile } from './profile.ts';
import { Progress } from './progress.ts';
import { withoutCredentials, withoutInputRules } from './raw-requests.ts';
import { displayBase, displayUrl, type ReproductionProfile, reproduction } from './redact.ts';
import { describeInput, pagesBetween, runSeed, sampleSize } from './sampling.ts';
import type { SpecSchemaValidator } from './schema-validator.ts';
import type { ServiceTarget } from './targets.ts';
import { type CallInput, sampleInput } from './values.ts';

export type Target = ServiceTarget & { baseUrl: string };

/** The answer a call got, as the checks read it. */
export interface Seen {
  status: number;
  headers: Headers;
  body: unknown;
  method: string;
  /** The URL sent (with whatever the base URL carries: show it through `run.shownUrl`). */
  url: string;
  requestBody?: string;
}

/** What a call resolved to or threw, the last answer seen, and whether its request was sent at all. */
export type CallOutcome = ({ result: unknown } | { error: unknown }) & {
  seen?: Seen;
  dispatch: Dispatch;
  /** Why nothing was sent (the budget stopped the run, the call gave up waiting its turn). */
  notSent?: string;
};

export interface LiveSuiteOptions {
  profile: ServiceProfile;
  spec: ContractSpec;
  target: Target;
  schemas: SpecSchemaValidator;
  recorder: CoverageRecorder;
  env?: Record<string, string | undefined>;
}

export class LiveRun {
  readonly profile: ServiceProfile;
  readonly spec: ContractSpec;
  readonly target: Target;
  readonly schemas: SpecSchemaValidator;
  readonly recorder: CoverageRecorder;
  readonly service: string;
  readonly budget: LiveBudget;
  readonly ledger: EvidenceLedger;
  readonly progress: Progress;
  readonly strict: boolean;
  readonly samplesWanted: number;
  readonly pagesBetween: number;
  readonly seed: number;
  readonly byId: Map<string, ContractOperation>;
  /** The base URL as it may be shown (no `user:password@`, no key in the path). */
  readonly shownBase: string;
  readonly reproductionProfile: ReproductionProfile;

  constructor(options: LiveSuiteOptions) {
    const env = options.env ?? process.env;
    this.profile = options.profile;
    this.spec = options.spec;
    this.target = options.target;
    this.schemas = options.schemas;
    this.recorder = options.recorder;
    this.service = options.profile.service;
    this.budget = new LiveBudget(options.profile.budget, env);
    this.strict = strictMode(env);
    this.samplesWanted = sampleSize(env);
    this.pagesBetween = pagesBetween(env);
    this.seed = runSeed(env);
    this.byId = new Map(options.spec.operations.map((op) => [op.id, op]));
    this.shownBase = displayBase(options.target.baseUrl);
    this.reproductionProfile = options.profile.reproduction ?? {
      baseUrlEnv: `${this.service.toUpperCase()}_BASE_URL`,
      auth: [],
    };
    const operationIds = options.spec.operations.map((op) => op.id);
    this.ledger = new EvidenceLedger(
      {
        service: this.service,
        target: 'live',
        startedAt: new Date().toISOString(),
        seed: String(this.seed),
        floor: floorFromEnv(this.service, operationIds, env),
        ...(this.strict ? { strict: true } : {}),
      },
      options.spec.operations.map((op) => ({
        ...op,
        // A lookup of a listed record: a path value from the service's own answers (not a cursor, not a guess).
        lookup: Object.values(op.sources).some(
          (source) => source?.kind === 'response' && source.declared !== 'guess' && !source.cursor,
        ),
      })),
    );
    this.progress = new Progress(this.service, this.budget);
    // A base URL the client refuses (credentials in it, not http(s)) is one configuration error, said once here.
    options.profile.createClient(options.target, globalThis.fetch);
  }

  /** `text` with the base URL (and any URL under it) as it may be shown: server and client text name it at times. */
  scrub(text: string): string {
    const raw = this.target.baseUrl.replace(/\/$/, '');
    let plain = raw;
    try {
      const url = new URL(raw);
      plain = `${url.origin}${url.pathname.replace(/\/$/, '')}`;
    } catch {}
    return text.replaceAll(raw, this.shownBase).replaceAll(plain, this.shownBase);
  }

  /** A URL sent, as it may be shown. */
  shownUrl(url: string): string {
    return displayUrl(url, this.target.baseUrl);
  }

  /** The one-line curl that sends `seen`'s request again, credentials as environment variables. */
  reproductionOf(seen: { method: string; url: string; requestBody?: string } | undefined): string | undefined {
    if (!seen) return undefined;
    return reproduction(
      { method: seen.method, url: seen.url, body: seen.requestBody },
      this.target.baseUrl,
      this.reproductionProfile,
    );
  }

  /** The client's own call of `operation`, through the budget; its last answer kept for the checks. */
  async call(operation: ContractOperation, input: CallInput): Promise<CallOutcome> {
    let seen: Seen | undefined;
    const dispatch: Dispatch = {};
    const fetch: typeof globalThis.fetch = async (request, init) => {
      const head = new Request(request, init);
      const requestBody = typeof init?.body === 'string' ? init.body : undefined;
      const response = await this.budget.send(request, init, dispatch);
      this.ledger.sent(operation.id);
      const body = await peekBody(response);
      dispatch.answered = true;
      seen = {
        status: response.status,
        headers: response.headers,
        body,
        method: head.method,
        url: head.url,
        ...(requestBody !== undefined ? { requestBody } : {}),
      };
      return response;
    };
    const fn = operationFunction(this.profile, operation.id);
    // The budget times each request from the moment it is sent; the client only bounds the whole wait, queue
    // included, so a request waiting behind a hung one is not counted as hung itself.
    const options = { ...input, maxRetries: 0, timeout: this.budget.timeoutMs * 20 };
    try {
      return { result: await fn(this.profile.createClient(this.target, fetch), options), seen, dispatch };
    } catch (error) {
      const notSent = !dispatch.sent ? notSentReason(error) : undefined;
      return { error, seen, dispatch, ...(notSent ? { notSent } : {}) };
    }
  }

  /**
   * A request sent past the client's input rules, by the client's own operation function (same URL, query and
   * auth headers as a user's call); without credentials when `credentials` is false. The status answered, or why
   * nothing was sent.
   */
  async raw(
    operation: ContractOperation,
    input: CallInput,
    credentials: boolean,
  ): Promise<{ status?: number; removed: number; problem?: string; notSent?: string; seen?: Seen }> {
    let seen: Seen | undefined;
    let removed = 0;
    const dispatch: Dispatch = {};
    const fetch: typeof globalThis.fetch = async (request, init) => {
      let response: Response;
      let url: string;
      let method: string;
      if (credentials) {
        const head = new Request(request, init);
        url = head.url;
        method = head.method;
        response = await this.budget.send(request, init, dispatch);
      } else {
        const bare = await withoutCredentials(request, init);
        removed = bare.removed;
        url = bare.url;
        method = bare.init.method ?? 'GET';
        response = await this.budget.send(bare.url, bare.init, dispatch);
      }
      this.ledger.sent(operation.id);
      dispatch.answered = true;
      seen = { status: response.status, headers: response.headers, body: undefined, method, url };
      return response;
    };
    const client = this.profile.createClient(this.target, fetch);
    const lenient: OperationClient = {
      request: (op, callOptions) => client.request(withoutInputRules(op), callOptions),
    };
    try {
      await operationFunction(this.profile, operation.id)(lenient, {
        ...input,
        maxRetries: 0,
        timeout: this.budget.timeoutMs * 20,
      });
    } catch (error) {
      if (!dispatch.sent) {
        const notSent = notSentReason(error);
        return notSent ? { removed, notSent } : { problem: `not sent: ${(error as Error).message}`, removed };
      }
      if (seen === undefined) {
        return {
          problem: dispatch.timedOut
            ? `no answer within ${this.budget.timeoutMs / 1000} s (CONTRACT_TIMEOUT)`
            : `no answer: ${(error as Error).message}`,
          removed,
        };
      }
    }
    return { status: (seen as Seen).status, removed, ...(seen ? { seen } : {}) };
  }

  /** The request of `coverage` for `operation`, with real path values; a published example body where there is one. */
  inputFor(operation: ContractOperation, coverage: 'required' | 'all', path: Record<string, unknown>): CallInput {
    const input: CallInput = { ...sampleInput(this.spec.document, operation, coverage), path };
    // A published example is what the service's own documentation sends: better than a body made up from the schema.
    if (input.body !== undefined && operation.bodyExample) input.body = structuredClone(operation.bodyExample.value);
    return input;
  }

  /** What a request to `operation` with `input` rested on, from what its path values rested on. */
  basisOf(operation: ContractOperation, input: CallInput, path: Basis): Basis {
    const guesses = [
      operation.provisional ? 'the operation is x-provisional (its spec is itself a guess)' : undefined,
      path.guess,
      input.body !== undefined && !operation.bodyExample
        ? 'its body was made up from the schema (no published example)'
        : undefined,
    ].filter(Boolean);
    const requiredQuery = operation.parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name);
    const queryNames = Object.keys(input.query ?? {});
    const constructed = [
      queryNames.some((name) => !requiredQuery.includes(name)) ? 'optional inputs the suite chose' : undefined,
      requiredQuery.length > 0 ? `required query value(s) the suite made up (${requiredQuery.join(', ')})` : undefined,
      input.body !== undefined && operation.bodyExample ? 'the published example body' : undefined,
    ].filter(Boolean);
    return {
      ...(guesses.length ? { guess: guesses.join('; ') } : {}),
      ...(path.listed ? { listed: path.listed } : {}),
      ...(path.record ? { record: path.record } : {}),
      ...(path.cursor ? { cursor: path.cursor } : {}),
      ...(path.operatorValue ? { operatorValue: path.operatorValue } : {}),
      ...(constructed.length ? { constructed: constructed.join('; ') } : {}),
      sent: describeInput(input),
    };
  }
}

/** Why a call's request was never sent, when the error says so (budget stopped, or it gave up in the queue). */
function notSentReason(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof NotSentError) return e.message;
  }
  const message = (error as Error | undefined)?.message ?? '';
  if (/not sent/.test(message)) return message;
  // The client's own wait ran out while the request still waited its turn in the budget.
  if (/time(d)? ?out|abort/i.test(message)) return 'not sent: the call gave up while it waited its turn';
  return undefined;
}
