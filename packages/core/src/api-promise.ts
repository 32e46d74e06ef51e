/**
 * The promise every call of a client returns: awaiting it gives the parsed body; `.withResponse()` gives the
 * body next to the raw response, `.asResponse()` the response alone (status, headers; its body already read). And
 * how a row is sent with it: `sendOperation` (each generated per-operation function), `bindOperations` (a client's
 * `api`).
 */
import type { Operation, OperationCallOptions, OperationClient, WithResponse } from './operations.js';

/** The executor of every ApiPromise's base promise: one function, not a closure per call. */
const settleAsPlaceholder = (resolve: (value: never) => void) => resolve(undefined as never);

/** A call's answer: a promise of its data that can also hand out the response it came from. */
export class ApiPromise<T> extends Promise<T> {
  readonly #answer: Promise<WithResponse<T>>;

  /** `answer` is the call in flight; the request has already started. */
  constructor(answer: Promise<WithResponse<T>>) {
    // The base promise is a placeholder: `then` (which `await`, `catch` and `finally` go through) reads `answer`.
    super(settleAsPlaceholder);
    this.#answer = answer;
  }

  /** Derived promises (`then`, `catch`, `finally`) are plain promises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The parsed body next to the response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#answer;
  }

  /** The response alone: status and headers (its body is already read and parsed). */
  asResponse(): Promise<WithResponse<T>['response']> {
    return this.#answer.then((answer) => answer.response);
  }

  // biome-ignore lint/suspicious/noThenProperty: this is the promise's own `then`, reading the answer lazily.
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    // One step from the answer to the caller's callback: no intermediate promise of the data.
    return this.#answer.then(
      typeof onFulfilled === 'function'
        ? (answer) => onFulfilled(answer.data)
        : (answer) => answer.data as unknown as A,
      onRejected,
    );
  }
}

/** `answer`'s data mapped by `map`, as an ApiPromise whose `.withResponse()` carries the mapped data. */
export function mapApiPromise<From, To>(answer: Promise<WithResponse<From>>, map: (data: From) => To): ApiPromise<To> {
  return new ApiPromise(answer.then(({ data, response }) => ({ data: map(data), response })));
}

/**
 * Sends `operation` through `client`: what each generated per-operation function does. Resolves to the parsed
 * body; `.withResponse()` and `.asResponse()` give the response too.
 */
export function sendOperation<T>(client: OperationClient, operation: Operation, options?: object): ApiPromise<T> {
  return new ApiPromise(client.request(operation, options as OperationCallOptions) as Promise<WithResponse<T>>);
}

// biome-ignore lint/suspicious/noExplicitAny: generated functions differ in their options; this only constrains shape.
type OperationFunction = (client: OperationClient, options?: any) => ApiPromise<unknown>;

type Rest<F> = F extends (client: OperationClient, ...rest: infer R) => unknown ? R : never;

/** A generated operation function bound to one client: `(options) => ApiPromise<data>`. */
export type BoundOperation<F extends OperationFunction> = (...args: Rest<F>) => ReturnType<F>;

/** Every generated operation function (typed by `Functions`, the module's type), bound to one client. */
export type BoundOperations<Functions, Ids extends string> = {
  [K in Ids & keyof Functions]: Functions[K] extends OperationFunction ? BoundOperation<Functions[K]> : never;
};

/**
 * Every operation of the table bound to `client`: `api[id](options)` sends `client.request(table[id], options)`
 * directly. `Functions` (the type of the generated `api.gen.ts`) gives each its option and result types.
 */
export function bindOperations<Functions, Ops extends Readonly<Record<string, Operation>>>(
  operations: Ops,
  client: OperationClient,
): BoundOperations<Functions, Extract<keyof Ops, string>> {
  const bound: Record<string, (options?: OperationCallOptions) => ApiPromise<unknown>> = {};
  // Keys, not entries: the store binds 179 operations on the first read of `api`, and entries' pairs cost it double.
  for (const id of Object.keys(operations)) {
    const operation = operations[id] as Operation;
    bound[id] = (options) => new ApiPromise(client.request(operation, options));
  }
  return bound as unknown as BoundOperations<Functions, Extract<keyof Ops, string>>;
}
