/**
 * The check of a call's inputs against its operation's constraints, run before anything is sent. It loads with the
 * transport at a client's first call, so importing an operation does not carry it.
 */

import type { OperationInput, OperationShape, QueryConstraint, RequestOptions } from '../../operations.js';
import { isAbortSignal } from './client-checks.js';
import { ConfigurationError, RequestValidationError } from './errors.js';
import { type ValueRules, valueViolation } from './json-value.js';

/** The value at a dotted path of `root`, or undefined where a step is missing. */
function valueAt(root: unknown, path: string): unknown {
  let current = root;
  for (const step of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return Array.isArray(value) ? 'an array' : String(value);
}

/**
 * What is wrong with `value` under `constraint`, quoting the value. A row's constraint is already a schema of the one
 * checker (type, enum, range), read as it stands; only the row's `unknown` type means "any type".
 */
function valueProblem(constraint: QueryConstraint, value: unknown): string | undefined {
  const schema = (constraint.type === 'unknown' ? { ...constraint, type: undefined } : constraint) as ValueRules;
  const reason = valueViolation(schema, value);
  return reason && `${reason}, got ${describeValue(value)}`;
}

const NONE: readonly string[] = [];
const NO_CONSTRAINTS: Readonly<Record<string, QueryConstraint>> = {};

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

/** Why `name` is not a parameter of the operation: a per-call option in the wrong place, or unknown. */
function unknownParameter(
  operationId: string,
  where: 'path' | 'query',
  name: string,
  known: readonly string[],
): string {
  if (CALL_OPTIONS.has(name)) {
    return `is a per-call option, not a ${where} parameter: pass it among the call's options (for a resource method, the argument after its parameters), where it is never sent`;
  }
  const takes =
    known.length === 0 ? 'none' : known.length > 12 ? `${known.slice(0, 12).join(', ')}, …` : known.join(', ');
  return `is not a ${where} parameter of ${operationId} (it takes: ${takes})`;
}

/**
 * Refuses any key of `input` that is neither an input (`path`, `query`, `body`) nor a per-call option, and any
 * path or query key the operation does not declare: an unknown key would otherwise be dropped or sent as a query
 * parameter (a per-call `timeout` put among the parameters went out as `?timeout=…`, and applied no timeout).
 * Keys whose value is `undefined` are left alone, as they would send nothing.
 */
function rejectUnknownKeys(
  operationId: string,
  shape: OperationShape,
  input: OperationInput,
  fail: (field: string, reason: string) => never,
): void {
  for (const [name, value] of Object.entries(input)) {
    if (value !== undefined && !CALL_KEYS.has(name)) {
      fail(name, `is not an option of a call to ${operationId} (it takes: ${[...CALL_KEYS].join(', ')})`);
    }
  }
  // The template's variables count too: a row whose path rules were lifted (a raw check) still names them there.
  const pathParams = [...new Set([...(shape.pathParams ?? NONE), ...templateVariables(shape.path)])];
  for (const [name, value] of Object.entries(input.path ?? {})) {
    if (value !== undefined && !pathParams.includes(name)) {
      fail(`path.${name}`, unknownParameter(operationId, 'path', name, pathParams));
    }
  }
  const query = shape.query ?? NO_CONSTRAINTS;
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && !Object.hasOwn(query, name)) {
      fail(`query.${name}`, unknownParameter(operationId, 'query', name, Object.keys(query)));
    }
  }
}

/**
 * Checks the inputs of one call against its operation's constraints: required path parameters present,
 * non-empty, not a dot segment and of their declared type, query parameters of the declared type, within their
 * enum and range (both by the one argument checker's value rules, `json-value.ts`), required ones present, a
 * body where one is required, and the body's required properties wherever the object holding them is present; no
 * key the operation does not declare (a per-call option among the parameters included). Throws a
 * {@link RequestValidationError} naming the first offending field.
 */
export function validateOperationInput(operationId: string, shape: OperationShape, input: OperationInput = {}): void {
  const fail = (field: string, reason: string): never => {
    throw new RequestValidationError({ operation: operationId, field, reason });
  };
  rejectUnknownKeys(operationId, shape, input, fail);
  for (const name of shape.pathParams ?? NONE) {
    const value = input.path?.[name];
    if (value === undefined || value === null || value === '') fail(`path.${name}`, 'is required');
    else if (typeof value !== 'string' && typeof value !== 'number') {
      fail(`path.${name}`, `must be a string or a number, got ${describeValue(value)}`);
    } else if (value === '.' || value === '..') {
      // Encoding leaves dots alone, so these would become dot segments and address another resource.
      fail(`path.${name}`, `must not be "." or "..", got ${describeValue(value)}`);
    } else {
      const constraint = shape.pathTypes?.[name];
      const problem = constraint && valueProblem(constraint, value);
      if (problem) fail(`path.${name}`, problem);
    }
  }
  for (const [name, constraint] of Object.entries(shape.query ?? NO_CONSTRAINTS)) {
    const value = input.query?.[name];
    if (value === undefined || value === null) {
      if (constraint.required) fail(`query.${name}`, 'is required');
      continue;
    }
    const problem = valueProblem(constraint, value);
    if (problem) fail(`query.${name}`, problem);
  }
  if (shape.bodyRequired && input.body === undefined) fail('body', 'is required');
  // fetch refuses a body on these methods: said here, before anything is sent, rather than as a failed connection.
  const method = shape.method.toUpperCase();
  if (input.body !== undefined && (method === 'GET' || method === 'HEAD')) {
    fail('body', `must not be given: a ${method} request carries no body`);
  }
  for (const field of shape.requiredBodyFields ?? NONE) {
    const dot = field.lastIndexOf('.');
    const holder = dot < 0 ? input.body : valueAt(input.body, field.slice(0, dot));
    if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) continue;
    const value = (holder as Record<string, unknown>)[field.slice(dot + 1)];
    if (value === undefined || value === null) fail(`body.${field}`, 'is required');
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
  const { signal, headers } = (options ?? {}) as { signal?: unknown; headers?: unknown };
  const [field, shape, value] =
    options === null || typeof options !== 'object' || Array.isArray(options)
      ? ['options', 'an object', options]
      : signal != null && !isAbortSignal(signal)
        ? ['signal', 'an AbortSignal', signal]
        : headers !== undefined && !isHeadersShape(headers)
          ? ['headers', 'a Headers, [name, value] pairs or a record', headers]
          : [];
  const problem = field
    ? {
        field,
        reason: `must be ${shape}, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
      }
    : limitProblem(options as { timeout?: unknown; maxRetries?: unknown });
  if (problem) throw new RequestValidationError({ operation: operationId, ...problem });
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

/** What is wrong with the limits given (`timeout`, `maxRetries`, …), if anything: the field and the reason. */
export function limitProblem(options: {
  timeout?: unknown;
  maxRetries?: unknown;
  maxRetryAfter?: unknown;
  maxResponseBytes?: unknown;
}): { field: string; reason: string } | undefined {
  const { timeout, maxRetries, maxRetryAfter, maxResponseBytes } = options;
  for (const [field, value] of [
    ['timeout', timeout],
    ['maxRetryAfter', maxRetryAfter],
  ] as const) {
    if (value !== undefined && !(typeof value === 'number' && value >= 0)) {
      return { field, reason: `must be a number of milliseconds ≥ 0 (Infinity for none), got ${String(value)}` };
    }
  }
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
