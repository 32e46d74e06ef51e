/**
 * The type of `client.api`: every operation of the spec, bound to one configured client.
 */
import type { BoundOperations } from '@agent-apis/core';
import type { OperationId } from './gen/operations.gen.js';
import type * as sdk from './gen/sdk/sdk.gen.js';

/**
 * The member of a generated result union that every other member accepts. The generated functions are generic
 * in `ThrowOnError`; read from outside, that parameter widens to `boolean` and the result to
 * `Promise<T> | Promise<T | undefined>`. This client always throws on errors, so `Promise<T>` is the real type.
 */
type ThrowingResult<Result, All = Result> = Result extends unknown
  ? (All extends unknown ? (Result extends All ? true : false) : never) extends true
    ? Result
    : never
  : never;

/** Generated options this client fixes: the client, its authentication, and how errors and results are returned. */
type FixedOption = 'client' | 'auth' | 'security' | 'throwOnError' | 'responseStyle';

type StoreOperation<Bound> = Bound extends (options: infer Options) => infer Result
  ? undefined extends Options
    ? (options?: Omit<NonNullable<Options>, FixedOption>) => ThrowingResult<Result>
    : (options: Omit<Options, FixedOption>) => ThrowingResult<Result>
  : never;

type BoundStoreOperations = BoundOperations<typeof sdk, OperationId>;

/**
 * `client.api.<operationId>(options)` for every operation: the generated options (`path`, `query`, `body`,
 * `headers`, `signal`…) plus per-call `timeout` and `maxRetries`; resolves to the response body or throws.
 */
export type StoreApi = { [Id in OperationId]: StoreOperation<BoundStoreOperations[Id]> };

/** The options of operation `Id`. */
export type StoreOperationOptions<Id extends OperationId> = NonNullable<Parameters<StoreApi[Id]>[0]>;

/** What operation `Id` resolves to. */
export type StoreOperationResult<Id extends OperationId> = Awaited<ReturnType<StoreApi[Id]>>;
