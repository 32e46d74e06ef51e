/**
 * The type of `client.api`: every operation of the spec, bound to one configured client.
 */
import type { BoundOperations } from '@agent-apis/core/service';
import type * as functions from './gen/api.gen.js';
import type { OperationId } from './gen/operations.gen.js';

/**
 * `client.api.<operationId>(options)` for every operation: `path`, `query`, `body`, `headers`, `signal`, per-call
 * `timeout` and `maxRetries`; resolves to the response body or throws. `.withResponse()` on the returned promise
 * adds the raw response, `.asResponse()` gives the response alone.
 */
export type StoreApi = BoundOperations<typeof functions, OperationId>;

/** The options of operation `Id`. */
export type StoreOperationOptions<Id extends OperationId> = NonNullable<Parameters<StoreApi[Id]>[0]>;

/** What operation `Id` resolves to. */
export type StoreOperationResult<Id extends OperationId> = Awaited<ReturnType<StoreApi[Id]>>;
