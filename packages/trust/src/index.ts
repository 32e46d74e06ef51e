/**
 * @agent-apis/trust: client of the Entropy0 trust-decision API, for agents that check a domain before they
 * fetch from it.
 */

// What a user of the client meets of core (every error class, `errorClassForStatus`, the options' and
// answers' types, …): core's root is that list, kept once there.
export * from '@agent-apis/core';
export {
  API_KEY_ENV,
  API_KEY_ENV_VAR,
  BASE_URL_ENV,
  BASE_URL_ENV_VAR,
  createTrustClient,
  DEFAULT_BASE_URL,
  LOG_LEVEL_ENV,
  type TrustApi,
  TrustClient,
  type TrustClientOptions,
} from './client.js';
export {
  DEFAULT_INTERACTION,
  DEFAULT_POLICY,
  type DecideContext,
  type DecideInput,
  type TargetInput,
} from './decide-request.js';
export { TrustDecision } from './decision.js';
export * from './gen/api.gen.js';
export { type OperationId, operations } from './gen/operations.gen.js';
export type * from './gen/types.gen.js';
// The generated types' own `ClientOptions` (the spec's servers) keeps the name, as before core's were re-exported whole.
export type { ClientOptions } from './gen/types.gen.js';
export {
  type GuardContext,
  type GuardedFetchOptions,
  type GuardOptions,
  TrustActionError,
  TrustDeniedError,
  TrustEscalationRequiredError,
  TrustSandboxRequiredError,
  TrustUnavailableError,
} from './guard.js';
