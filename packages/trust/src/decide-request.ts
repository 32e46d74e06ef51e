/**
 * From what a caller passes to `decide` to the body that goes on the wire: target type inferred from the
 * value, the defaults of the official SDKs filled in, enums checked before anything is sent, and the key
 * under which the decision is cached.
 */
import { RequestValidationError } from '@agent-apis/core';
import type {
  DecideOptions,
  DecideRequest,
  Interaction,
  InteractionKind,
  InteractionMode,
  InteractionSensitivity,
  Policy,
  PolicyProfile,
  Target,
  TargetType,
} from './gen/types.gen.js';

/** What to evaluate: a `{ type, value }` target, or a string (`https://…` → `url`, anything else → `domain`). */
export type TargetInput = Target | string;

/** The context of a decision; each omitted field takes the default the official SDKs send. */
export interface DecideContext {
  /** Default `{ kind: 'fetch', mode: 'read_only', sensitivity: 'medium' }`. */
  interaction?: Interaction | undefined;
  /** Default `{ profile: 'balanced' }`. */
  policy?: Policy | undefined;
  /** Left to the service when omitted (evidence is included). */
  options?: DecideOptions | undefined;
}

/** The full form of a `decide` call. */
export interface DecideInput extends DecideContext {
  target: TargetInput;
}

/** The interaction every official SDK sends when the caller gives none. */
export const DEFAULT_INTERACTION: Readonly<Required<Interaction>> = {
  kind: 'fetch',
  mode: 'read_only',
  sensitivity: 'medium',
};

/** The policy every official SDK sends when the caller gives none. */
export const DEFAULT_POLICY: Readonly<Required<Policy>> = { profile: 'balanced' };

/** A decide body whose interaction and policy are complete. */
export interface CompleteDecideRequest extends DecideRequest {
  interaction: Required<Interaction>;
  policy: Required<Policy>;
}

/** Every value of the union `T`, checked at compile time: leaving one out or adding a stranger fails to build. */
function allValues<T extends string>() {
  return <const V extends readonly T[]>(values: V & ([T] extends [V[number]] ? unknown : never)): V => values;
}

/** The enums of the decide body; a test checks them against the spec's zod schema as well. */
export const DECIDE_ENUMS = {
  targetType: allValues<TargetType>()(['domain', 'url']),
  interactionKind: allValues<InteractionKind>()([
    'navigate',
    'fetch',
    'enrich',
    'download_file',
    'submit_credentials',
    'initiate_payment',
  ]),
  interactionMode: allValues<InteractionMode>()(['read_only', 'transactional', 'privileged']),
  interactionSensitivity: allValues<InteractionSensitivity>()(['low', 'medium', 'high', 'critical']),
  policyProfile: allValues<PolicyProfile>()(['open', 'balanced', 'strict', 'critical']),
} as const;

const URL_PREFIX = /^https?:\/\//i;

/** `{ type: 'url' }` for values starting with `http://` or `https://`, `{ type: 'domain' }` otherwise. */
export function inferTarget(value: string): Target {
  return { type: URL_PREFIX.test(value) ? 'url' : 'domain', value };
}

/**
 * The body for `decide(target, context)` or `decide(input)`: a string target becomes `{ type, value }`, the
 * caller's fields are checked ({@link assertValidDecideRequest}), then omitted interaction and policy fields
 * take the defaults of the official SDKs.
 */
export function toDecideRequest(input: DecideInput | string, context: DecideContext = {}): CompleteDecideRequest {
  const given: DecideInput = typeof input === 'string' ? { ...context, target: input } : input;
  const body = (
    typeof given?.target === 'string' ? { ...given, target: inferTarget(given.target) } : given
  ) as DecideRequest;
  assertValidDecideRequest(body);
  const { target, interaction, policy, options } = body;
  return {
    target,
    interaction: {
      kind: interaction?.kind ?? DEFAULT_INTERACTION.kind,
      mode: interaction?.mode ?? DEFAULT_INTERACTION.mode,
      sensitivity: interaction?.sensitivity ?? DEFAULT_INTERACTION.sensitivity,
    },
    policy: { profile: policy?.profile ?? DEFAULT_POLICY.profile },
    ...(options === undefined ? {} : { options }),
  };
}

/**
 * Checks a decide body against the spec before it is sent: required target, non-empty value, every enum, the
 * evidence flag, and no unknown fields. Throws a {@link RequestValidationError} naming the first bad field.
 */
export function assertValidDecideRequest(body: DecideRequest): void {
  if (body === undefined) fail('body', 'is required');
  checkObject('body', body, { target: 0, interaction: 0, policy: 0, options: 0 });
  if (body.target === undefined) fail('body.target', 'is required');
  checkObject('body.target', body.target, { type: 0, value: 0 });
  checkEnum('body.target.type', body.target.type, DECIDE_ENUMS.targetType, true);
  if (typeof body.target.value !== 'string' || body.target.value.trim() === '') {
    fail('body.target.value', `must be a non-empty string, got ${describe(body.target.value)}`);
  }
  checkObject('body.interaction', body.interaction, { kind: 0, mode: 0, sensitivity: 0 });
  checkEnum('body.interaction.kind', body.interaction?.kind, DECIDE_ENUMS.interactionKind);
  checkEnum('body.interaction.mode', body.interaction?.mode, DECIDE_ENUMS.interactionMode);
  checkEnum('body.interaction.sensitivity', body.interaction?.sensitivity, DECIDE_ENUMS.interactionSensitivity);
  checkObject('body.policy', body.policy, { profile: 0 });
  checkEnum('body.policy.profile', body.policy?.profile, DECIDE_ENUMS.policyProfile);
  checkObject('body.options', body.options, { include_evidence: 0 });
  const includeEvidence = body.options?.include_evidence;
  if (includeEvidence !== undefined && typeof includeEvidence !== 'boolean') {
    fail('body.options.include_evidence', `must be true or false, got ${describe(includeEvidence)}`);
  }
}

/**
 * The cache key of a request: same target (domain lower-cased without a trailing dot, URL in its parsed form),
 * same interaction, same policy and same evidence option give the same key.
 */
export function decisionCacheKey(request: CompleteDecideRequest): string {
  const { target, interaction, policy, options } = request;
  return JSON.stringify([
    target.type,
    normalizeTargetValue(target),
    interaction.kind,
    interaction.mode,
    interaction.sensitivity,
    policy.profile,
    options?.include_evidence ?? true,
  ]);
}

function normalizeTargetValue({ type, value }: Target): string {
  const trimmed = value.trim();
  if (type === 'domain') return trimmed.toLowerCase().replace(/\.$/, '');
  try {
    return new URL(trimmed).href;
  } catch {
    return trimmed;
  }
}

function fail(field: string, reason: string): never {
  throw new RequestValidationError({ operation: 'decide', field, reason });
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** `value` is absent, or a plain object whose keys are all in `allowed`. */
function checkObject(field: string, value: unknown, allowed: Record<string, 0>): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(field, `must be an object, got ${Array.isArray(value) ? 'an array' : describe(value)}`);
  }
  const unknown = Object.keys(value).find((key) => !Object.hasOwn(allowed, key));
  if (unknown !== undefined) fail(`${field}.${unknown}`, `is not a field of the decide request`);
}

function checkEnum(field: string, value: unknown, options: readonly string[], required = false): void {
  if (value === undefined) {
    if (required) fail(field, 'is required');
    return;
  }
  if (!options.includes(value as string)) {
    fail(field, `must be one of ${options.map((option) => JSON.stringify(option)).join(', ')}, got ${describe(value)}`);
  }
}
