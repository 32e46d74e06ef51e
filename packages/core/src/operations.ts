/**
 * The bridge between a service's generated SDK and this runtime: checks an operation's inputs against the
 * spec's constraints before anything is sent, names operations in errors, and binds every SDK function to one
 * configured client.
 */
import { type OperationInfo, RequestValidationError } from './errors.js';
import { type RequestOptions, requestOptionHeaders } from './fetch.js';
import { ResponseParseError } from './response-validation.js';

/** How the runtime checks one query parameter (the shape `operations.gen.ts` emits). */
export interface QueryConstraint {
  readonly required: boolean;
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'unknown';
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
}

/** One operation of a spec, as generated into `operations.gen.ts`. */
export interface OperationShape {
  readonly method: string;
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly query: Readonly<Record<string, QueryConstraint>>;
  readonly bodyRequired: boolean;
  /** Whether the success response is JSON: a text answer is then refused instead of returned as data. */
  readonly successJson?: boolean;
}

/** The inputs of one SDK call, as the generated functions take them. */
export interface OperationInput {
  path?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return Array.isArray(value) ? 'an array' : String(value);
}

function typeProblem(type: QueryConstraint['type'], value: unknown): string | undefined {
  switch (type) {
    case 'integer':
      return Number.isInteger(value) ? undefined : `must be an integer, got ${describeValue(value)}`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? undefined
        : `must be a number, got ${describeValue(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${describeValue(value)}`;
    case 'string':
      return typeof value === 'string' ? undefined : `must be a string, got ${describeValue(value)}`;
    case 'array':
      return Array.isArray(value) ? undefined : `must be an array, got ${describeValue(value)}`;
    default:
      return undefined;
  }
}

function queryProblem(constraint: QueryConstraint, value: unknown): string | undefined {
  const wrongType = typeProblem(constraint.type, value);
  if (wrongType) return wrongType;
  if (constraint.enum && !constraint.enum.includes(value)) {
    return `must be one of ${constraint.enum.map((option) => JSON.stringify(option)).join(', ')}, got ${describeValue(value)}`;
  }
  if (typeof value === 'number') {
    if (constraint.minimum !== undefined && value < constraint.minimum) {
      return `must be at least ${constraint.minimum}, got ${value}`;
    }
    if (constraint.maximum !== undefined && value > constraint.maximum) {
      return `must be at most ${constraint.maximum}, got ${value}`;
    }
  }
  return undefined;
}

/**
 * Checks the inputs of one call against its operation's constraints: required path parameters present and
 * non-empty, query parameters of the declared type, within their enum and range, required ones present, and a
 * body where one is required. Throws a {@link RequestValidationError} naming the first offending field.
 */
export function validateOperationInput(operationId: string, shape: OperationShape, input: OperationInput = {}): void {
  const fail = (field: string, reason: string): never => {
    throw new RequestValidationError({ operation: operationId, field, reason });
  };
  for (const name of shape.pathParams) {
    const value = input.path?.[name];
    if (value === undefined || value === null || value === '') fail(`path.${name}`, 'is required');
    else if (typeof value !== 'string' && typeof value !== 'number') {
      fail(`path.${name}`, `must be a string or a number, got ${describeValue(value)}`);
    }
  }
  for (const [name, constraint] of Object.entries(shape.query)) {
    const value = input.query?.[name];
    if (value === undefined || value === null) {
      if (constraint.required) fail(`query.${name}`, 'is required');
      continue;
    }
    const problem = queryProblem(constraint, value);
    if (problem) fail(`query.${name}`, problem);
  }
  if (shape.bodyRequired && input.body === undefined) fail('body', 'is required');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Names the operation a request belongs to, from its method and URL path: `{ id, route }` for
 * {@link createFetch}'s `operationFor`. A template matches at the end of the URL path, so any base path
 * (`/v1`, `/api`) in front of it is fine; literal paths win over templated ones.
 */
export function operationMatcher(
  operations: Readonly<Record<string, Pick<OperationShape, 'method' | 'path'>>>,
): (request: Request) => OperationInfo | undefined {
  const routes = Object.entries(operations)
    .map(([id, { method, path }]) => {
      const variables = path.match(/\{[^}]+\}/g)?.length ?? 0;
      const source = path
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join('[^/]+');
      return {
        id,
        method: method.toUpperCase(),
        route: `${method.toUpperCase()} ${path}`,
        variables,
        regex: new RegExp(`${source}$`),
      };
    })
    .sort((a, b) => a.variables - b.variables);
  return (request) => {
    const method = request.method.toUpperCase();
    const pathname = new URL(request.url).pathname;
    const match = routes.find((route) => route.method === method && route.regex.test(pathname));
    return match ? { id: match.id, route: match.route } : undefined;
  };
}

/** What every bound operation accepts besides its generated options: per-call timeout and retries. */
export type CallOptions = Pick<RequestOptions, 'timeout' | 'maxRetries'>;

// biome-ignore lint/suspicious/noExplicitAny: generated SDK functions are generic; this only constrains arity.
type SdkFunction = (options: any) => Promise<unknown>;

/** Generated options a bound operation does not take: the client fixes them for every call. */
type ClientFixedOption = 'client' | 'auth' | 'security' | 'throwOnError' | 'responseStyle';

/** The members of union `U` that every member of `U` accepts. */
type NarrowestMembers<U, All = U> = U extends unknown
  ? (All extends unknown ? (U extends All ? true : false) : never) extends true
    ? U
    : never
  : never;

/**
 * What a generated function resolves to on a client created with `throwOnError: true`. The functions are
 * generic in `ThrowOnError`; read from outside, it widens to `boolean` and the result to
 * `Promise<T> | Promise<T | undefined>`, one member per branch. The throwing branch is the narrower member, so
 * `undefined` remains only where the operation's response itself admits it.
 */
type ThrowingResult<R> = [NarrowestMembers<R>] extends [never] ? R : NarrowestMembers<R>;

/** The options of a bound operation: the generated ones minus those the client fixes, plus {@link CallOptions}. */
type BoundOptions<O> = Omit<O, ClientFixedOption> & CallOptions;

/** An SDK function bound to one client: resolves with the response body or throws. */
export type BoundOperation<F extends SdkFunction> = undefined extends Parameters<F>[0]
  ? (options?: BoundOptions<NonNullable<Parameters<F>[0]>>) => ThrowingResult<ReturnType<F>>
  : (options: BoundOptions<Parameters<F>[0]>) => ThrowingResult<ReturnType<F>>;

/** Every operation of a generated SDK, bound to one client. */
export type BoundOperations<S, Ids extends string> = {
  [K in Ids & keyof S]: S[K] extends SdkFunction ? BoundOperation<S[K]> : never;
};

interface SdkCallOptions extends OperationInput {
  headers?: HeadersInit | Record<string, unknown>;
  [option: string]: unknown;
}

/**
 * Binds every operation of a generated SDK to `client`, which must be created with `throwOnError: true`: each
 * bound function validates its inputs before sending ({@link validateOperationInput}), names itself for errors
 * and logs, and turns `timeout`/`maxRetries` into per-call options for {@link createFetch}.
 */
export function bindOperations<S extends Record<string, unknown>, Ops extends Readonly<Record<string, OperationShape>>>(
  sdk: S,
  operations: Ops,
  client: unknown,
): BoundOperations<S, Extract<keyof Ops, string>> {
  const bound: Record<string, (options?: SdkCallOptions & CallOptions) => Promise<unknown>> = {};
  for (const [id, shape] of Object.entries(operations)) {
    const call = sdk[id];
    if (typeof call !== 'function') throw new Error(`the SDK has no function for operation "${id}"`);
    const route = `${shape.method.toUpperCase()} ${shape.path}`;
    bound[id] = async (options = {}) => {
      const { timeout, maxRetries, headers, ...rest } = options;
      validateOperationInput(id, shape, rest);
      const optionHeaders = requestOptionHeaders({
        timeout,
        maxRetries,
        operation: { id, route },
        expectJson: shape.successJson === true,
      });
      try {
        return await call({ ...rest, client, headers: { ...toHeaderRecord(headers), ...optionHeaders } });
      } catch (error) {
        // The generated client parses JSON bodies itself; a body that does not parse surfaces as a SyntaxError.
        if (error instanceof SyntaxError) throw new ResponseParseError(id, route);
        throw error;
      }
    };
  }
  return bound as BoundOperations<S, Extract<keyof Ops, string>>;
}

function toHeaderRecord(headers: SdkCallOptions['headers']): Record<string, unknown> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return headers as Record<string, unknown>;
}
