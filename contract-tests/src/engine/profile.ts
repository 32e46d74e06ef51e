/**
 * What the generic contract runner (`suite.ts` for mocks, `checks/live.ts` for live services) needs to know about one
 * service, passed in by that service's contract file: how to build its client, the client's own operation
 * functions, its response validators, what a live run may spend, and the record families a write-enabled run
 * may create. The runner itself names no service.
 */
import type { OperationCallOptions, OperationClient, SchemaLike } from '@agent-apis/core';
import type { ServiceName } from '@agent-apis/specs/services';
import type { ContractNumberName } from '../settings.ts';
import type { LifecycleProfile } from './lifecycles.ts';
import type { ReproductionProfile } from './redact.ts';
import type { ServiceTarget } from './targets.ts';
import type { CallInput } from './values.ts';

/** A generated per-operation function of a client package: `getProduct(client, options)`. */
export type OperationFunction = (client: OperationClient, options?: OperationCallOptions) => Promise<unknown>;

export type ResponseValidators = Record<string, { response?: SchemaLike } | undefined>;

/**
 * What a live run may spend at this service, enforced by `engine/budget.ts`:
 * - `rateLimit`: requests per second and minute (`20/s,800/min`), read from `env` with `default`;
 * - `serial`: one call at a time (for a service that answers overlapping calls of one key with 409);
 * - `quota`: a metered allowance (scans), read from `env` (a `CONTRACT_*` number of `settings.ts`, with its range
 *   and default), and what one call costs.
 */
export interface BudgetProfile {
  rateLimit?: { env: string; default: string };
  serial?: boolean;
  quota?: { env: ContractNumberName; unit: string; cost(input: CallInput): number };
}

export interface ServiceProfile {
  service: ServiceName;
  /** The client package's generated operation functions, by operationId (the package's own table of calls). */
  // biome-ignore lint/suspicious/noExplicitAny: generated functions differ in their options; the suite calls them generically.
  functions: Record<string, any>;
  /** The client a user builds for `target`, sending through `fetch` (its base URL checks and auth headers). */
  createClient(target: ServiceTarget & { baseUrl: string }, fetch: typeof globalThis.fetch): OperationClient;
  validators: ResponseValidators;
  budget: BudgetProfile;
  /** The record families a write-enabled live run may create and remove (`lifecycles.ts`); none when left out. */
  lifecycles?: LifecycleProfile;
  /**
   * How a failure's one-line reproduction names this service: its base URL's variable and its credentials as
   * curl arguments with variables (`-u "$STORE_LOGIN:$STORE_AUTH_TOKEN"`), never values.
   */
  reproduction?: ReproductionProfile;
}

/** The profile's function for `operationId`, or a clear error when the client lacks the operation. */
export function operationFunction(profile: ServiceProfile, operationId: string): OperationFunction {
  const fn = profile.functions[operationId];
  if (typeof fn !== 'function') throw new Error(`the ${profile.service} client has no operation ${operationId}`);
  return fn as OperationFunction;
}

/** A response's body as JSON when it parses, else its text (undefined when empty); the response stays readable. */
export async function peekBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
