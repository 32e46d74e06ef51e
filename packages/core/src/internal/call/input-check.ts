/**
 * The check of a call's inputs against its operation's constraints, run before anything is sent. It loads with the
 * transport at a client's first call, so importing an operation does not carry it.
 */

import type { OperationInput, OperationShape, QueryConstraint, RequestOptions } from '../../operations.js';
import { isAbortSignal } from './client-checks.js';
import { ConfigurationError, RequestValidationError } from './errors.js';
import { type ValueRules, valueViolation } from './json-value.js';

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return Array.isArray(value) ? 'an array' : String(value);
}

/** What is wrong with `value` under `rules` (a row's constraint, as the one checker reads it), quoting the value. */
function valueProblem(rules: ValueRules, value: unknown): string | undefined {
  const reason = valueViolation(rules, value);
  return reason && `${reason}, got ${describeValue(value)}`;
}

/**
 * A row's constraint as a schema of the one checker (type, enum, range), read as it stands; only the row's `unknown`
 * type means "any type".
 */
function rulesOf(constraint: QueryConstraint): ValueRules {
  return (constraint.type === 'unknown' ? { ...constraint, type: undefined } : constraint) as ValueRules;
}

const NONE: readonly string[] = [];

/** The per-call options, every key of {@link RequestOptions}: never parameters, and never sent as such. */
const CALL_OPTIONS: ReadonlySet<string> = new Set(
  Object.keys({ timeout: 0, maxRetries: 0, signal: 0, headers: 0 } satisfies Record<keyof RequestOptions, 0>),
);
/** Every key a call's options may have: its inputs and the per-call options. */
const CALL_KEYS: ReadonlySet<string> = new Set(['path', 'query', 'body', ...CALL_OPTIONS]);

/** The variables of a path template (`/products/{id}.json` → `id`). */
function templateVariables(path: string): string[] {
  return path.includes('{') ? [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name as string) : [];
}

/** A query parameter's check, worked out once per row. */
interface QueryCheck {
  readonly name: string;
  readonly required: boolean;
  readonly rules: ValueRules;
}

/** A body property that must be present whenever the object holding it is (`product.name`). */
interface BodyFieldCheck {
  readonly field: string;
  /** Steps from the body to the object holding the property (none: the body itself). */
  readonly holder: readonly string[];
  readonly key: string;
}

/**
 * What the input check reads of one row, worked out at its first call and kept with it (rows are constants): the
 * names a call may use, the rules of each parameter, the body's required properties split into steps. A call then
 * walks only its own keys and the row's parameters.
 */
interface InputPlan {
  /** Path parameters the row declares, in template order (each required). */
  readonly pathParams: readonly string[];
  /** Their rules, by name (a parameter without a declared type has none). */
  readonly pathRules: ReadonlyMap<string, ValueRules>;
  /** Every name a call's `path` may hold: the declared parameters and the template's variables. */
  readonly pathNames: ReadonlySet<string>;
  readonly query: readonly QueryCheck[];
  readonly queryNames: ReadonlySet<string>;
  readonly bodyRequired: boolean;
  /** The method when it carries no body (GET, HEAD), else undefined. */
  readonly bodilessMethod: string | undefined;
  readonly bodyFields: readonly BodyFieldCheck[];
}

let plans: WeakMap<OperationShape, InputPlan> | undefined;

function inputPlan(shape: OperationShape): InputPlan {
  plans ??= new WeakMap();
  let plan = plans.get(shape);
  if (!plan) {
    plan = planOf(shape);
    plans.set(shape, plan);
  }
  return plan;
}

function planOf(shape: OperationShape): InputPlan {
  const pathParams = shape.pathParams ?? NONE;
  const pathRules = new Map<string, ValueRules>();
  for (const name of pathParams) {
    const constraint = shape.pathTypes?.[name];
    if (constraint) pathRules.set(name, rulesOf(constraint));
  }
  const query = Object.entries(shape.query ?? {}).map(([name, constraint]) => ({
    name,
    required: Boolean(constraint.required),
    rules: rulesOf(constraint),
  }));
  const method = shape.method.toUpperCase();
  return {
    pathParams,
    pathRules,
    // The template's variables count too: a row whose path rules were lifted (a raw check) still names them there.
    pathNames: new Set([...pathParams, ...templateVariables(shape.path)]),
    query,
    queryNames: new Set(query.map((check) => check.name)),
    bodyRequired: Boolean(shape.bodyRequired),
    bodilessMethod: method === 'GET' || method === 'HEAD' ? method : undefined,
    bodyFields: (shape.requiredBodyFields ?? NONE).map((field) => {
      const steps = field.split('.');
      return { field, key: steps.pop() as string, holder: steps };
    }),
  };
}

/** Why `name` is not a parameter of the operation: a per-call option in the wrong place, or unknown. */
function unknownParameter(operationId: string, where: 'path' | 'query', name: string, known: Iterable<string>): string {
  if (CALL_OPTIONS.has(name)) {
    return `is a per-call option, not a ${where} parameter: pass it among the call's options (for a resource method, the argument after its parameters), where it is never sent`;
  }
  const names = [...known];
  const takes =
    names.length === 0 ? 'none' : names.length > 12 ? `${names.slice(0, 12).join(', ')}, …` : names.join(', ');
  return `is not a ${where} parameter of ${operationId} (it takes: ${takes})`;
}

function fail(operation: string, field: string, reason: string): never {
  throw new RequestValidationError({ operation, field, reason });
}

/**
 * Refuses any key of `input` that is neither an input (`path`, `query`, `body`) nor a per-call option, and any
 * path or query key the operation does not declare: an unknown key would otherwise be dropped or sent as a query
 * parameter (a per-call `timeout` put among the parameters went out as `?timeout=…`, and applied no timeout).
 * Keys whose value is `undefined` are left alone, as they would send nothing.
 */
function rejectUnknownKeys(operationId: string, plan: InputPlan, input: OperationInput): void {
  for (const name of Object.keys(input)) {
    if (!CALL_KEYS.has(name) && (input as Record<string, unknown>)[name] !== undefined) {
      fail(operationId, name, `is not an option of a call to ${operationId} (it takes: ${[...CALL_KEYS].join(', ')})`);
    }
  }
  const { path, query } = input;
  if (path) {
    for (const name of Object.keys(path)) {
      if (!plan.pathNames.has(name) && path[name] !== undefined) {
        fail(operationId, `path.${name}`, unknownParameter(operationId, 'path', name, plan.pathNames));
      }
    }
  }
  if (query) {
    for (const name of Object.keys(query)) {
      if (!plan.queryNames.has(name) && query[name] !== undefined) {
        fail(operationId, `query.${name}`, unknownParameter(operationId, 'query', name, plan.queryNames));
      }
    }
  }
}

/**
 * Checks the inputs of one call against its operation's constraints: required path parameters present,
 * non-empty, not a dot segment and of their declared type, query parameters of the declared type, within their
 * enum and range (both by the one argument checker's value rules, `json-value.ts`), required ones present, a
 * body where one is required, and the body's required properties wherever the object holding them is present; no
 * key the operation does not declare (a per-call option among the parameters included). Throws a
 * {@link RequestValidationError} naming the first offending field. What it reads of the row is worked out at the
 * row's first call ({@link InputPlan}).
 */
export function validateOperationInput(operationId: string, shape: OperationShape, input: OperationInput = {}): void {
  const plan = inputPlan(shape);
  rejectUnknownKeys(operationId, plan, input);
  const { path, query, body } = input;
  for (const name of plan.pathParams) {
    const value = path?.[name];
    if (value === undefined || value === null || value === '') fail(operationId, `path.${name}`, 'is required');
    else if (typeof value !== 'string' && typeof value !== 'number') {
      fail(operationId, `path.${name}`, `must be a string or a number, got ${describeValue(value)}`);
    } else if (value === '.' || value === '..') {
      // Encoding leaves dots alone, so these would become dot segments and address another resource.
      fail(operationId, `path.${name}`, `must not be "." or "..", got ${describeValue(value)}`);
    } else {
      const rules = plan.pathRules.get(name);
      const problem = rules && valueProblem(rules, value);
      if (problem) fail(operationId, `path.${name}`, problem);
    }
  }
  for (const check of plan.query) {
    const value = query?.[check.name];
    if (value === undefined || value === null) {
      if (check.required) fail(operationId, `query.${check.name}`, 'is required');
      continue;
    }
    const problem = valueProblem(check.rules, value);
    if (problem) fail(operationId, `query.${check.name}`, problem);
  }
  if (plan.bodyRequired && body === undefined) fail(operationId, 'body', 'is required');
  // fetch refuses a body on these methods: said here, before anything is sent, rather than as a failed connection.
  if (body !== undefined && plan.bodilessMethod) {
    fail(operationId, 'body', `must not be given: a ${plan.bodilessMethod} request carries no body`);
  }
  for (const { field, holder: steps, key } of plan.bodyFields) {
    let holder: unknown = body;
    for (const step of steps) {
      if (holder === null || typeof holder !== 'object') break;
      holder = (holder as Record<string, unknown>)[step];
    }
    if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) continue;
    const value = (holder as Record<string, unknown>)[key];
    if (value === undefined || value === null) fail(operationId, `body.${field}`, 'is required');
  }
}

/**
 * Checks the shape of a call's options and its own `timeout`, `maxRetries`, `signal` and `headers` (the client's are
 * checked when its call path loads): the options are an object; a timeout is a number of milliseconds ≥ 0
 * (`Infinity` for none), retries a whole number ≥ 0; the signal an `AbortSignal`; the headers a `Headers`,
 * `[name, value]` pairs or a record (each header is checked as it is encoded, `wire-encoding.ts`, so that it is
 * built once). Throws a {@link RequestValidationError} naming the option; a value is never quoted, only its kind.
 */
export function validateRequestOptions(
  operationId: string,
  options: unknown,
): asserts options is { timeout?: unknown; maxRetries?: unknown; signal?: unknown; headers?: unknown } {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    refuseOption(operationId, 'options', 'an object', options);
  }
  const { signal, headers, timeout, maxRetries, maxRetryAfter, maxResponseBytes } = options as Record<string, unknown>;
  if (signal != null && !isAbortSignal(signal)) refuseOption(operationId, 'signal', 'an AbortSignal', signal);
  if (headers !== undefined && !isHeadersShape(headers)) {
    refuseOption(operationId, 'headers', 'a Headers, [name, value] pairs or a record', headers);
  }
  // Most calls set no limit of their own: nothing to weigh then.
  if (
    timeout === undefined &&
    maxRetries === undefined &&
    maxRetryAfter === undefined &&
    maxResponseBytes === undefined
  ) {
    return;
  }
  const problem = limitProblem({ timeout, maxRetries, maxRetryAfter, maxResponseBytes });
  if (problem) throw new RequestValidationError({ operation: operationId, ...problem });
}

/** Refuses an option of the wrong kind, naming the kind it got (never quoting the value). */
function refuseOption(operation: string, field: string, shape: string, value: unknown): never {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  throw new RequestValidationError({ operation, field, reason: `must be ${shape}, got ${got}` });
}

/** A `Headers`, an array of pairs, or a plain record. */
function isHeadersShape(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return value instanceof Headers || Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/**
 * Checks a client's `timeout`, `maxRetries`, `maxRetryAfter` and `maxResponseBytes`; throws a
 * {@link ConfigurationError} naming the option.
 */
export function validateClientLimits(client: string, options: Parameters<typeof limitProblem>[0]): void {
  const problem = limitProblem(options);
  if (problem) throw new ConfigurationError(`${client} ${problem.field} ${problem.reason}`);
}

function millisecondsProblem(field: string, value: unknown): { field: string; reason: string } | undefined {
  return value !== undefined && !(typeof value === 'number' && value >= 0)
    ? { field, reason: `must be a number of milliseconds ≥ 0 (Infinity for none), got ${String(value)}` }
    : undefined;
}

/** What is wrong with the limits given (`timeout`, `maxRetries`, …), if anything: the field and the reason. */
export function limitProblem(options: {
  timeout?: unknown;
  maxRetries?: unknown;
  maxRetryAfter?: unknown;
  maxResponseBytes?: unknown;
}): { field: string; reason: string } | undefined {
  const { timeout, maxRetries, maxRetryAfter, maxResponseBytes } = options;
  const timeProblem = millisecondsProblem('timeout', timeout) ?? millisecondsProblem('maxRetryAfter', maxRetryAfter);
  if (timeProblem) return timeProblem;
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && (maxRetries as number) >= 0)) {
    return { field: 'maxRetries', reason: `must be a whole number ≥ 0, got ${String(maxRetries)}` };
  }
  if (maxResponseBytes !== undefined && !(Number.isInteger(maxResponseBytes) && (maxResponseBytes as number) > 0)) {
    return {
      field: 'maxResponseBytes',
      reason: `must be a whole number of bytes > 0, got ${String(maxResponseBytes)}`,
    };
  }
  return undefined;
}
