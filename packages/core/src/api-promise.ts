/**
 * The promise every call of a client returns: awaiting it gives the parsed body; `.withResponse()` gives the
 * body next to the raw response, `.asResponse()` the response alone (status, headers; its body already read).
 */

/** A call's parsed body next to the raw response it came from (status, headers; the body is already read). */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

/** A call's answer: a promise of its data that can also hand out the response it came from. */
export class ApiPromise<T> extends Promise<T> {
  readonly #answer: Promise<WithResponse<T>>;

  /** `answer` is the call in flight; the request has already started. */
  constructor(answer: Promise<WithResponse<T>>) {
    // The base promise is a placeholder: `then` (which `await`, `catch` and `finally` go through) reads `answer`.
    super((resolve) => resolve(undefined as T));
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
