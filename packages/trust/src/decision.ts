/**
 * A decision with the questions an agent asks of it answered up front: may I fetch, is it denied, does a
 * person need to look, until when does it hold.
 */
import { ResponseValidationError } from '@agent-apis/core/errors';
import type { DecisionResult, ReasonCode, RecommendedAction } from './gen/types.gen.js';

/** Actions under which the agent may fetch the target. */
const FETCHABLE_ACTIONS: ReadonlySet<RecommendedAction> = new Set(['proceed', 'proceed_with_caution']);

/** The fields a decision is read from, checked even with `validateResponses` off. */
const READ_FIELDS = [
  ['decision', 'recommended_action'],
  ['decision', 'reason_codes'],
  ['uncertainty', 'requires_human_review'],
  ['validity', 'valid_until'],
] as const;

/** The result of one `decide` call: the response as sent by the service, plus typed shortcuts. */
export class TrustDecision {
  /** The decision exactly as the service returned it. */
  readonly result: DecisionResult;
  /** `decision.recommended_action`. */
  readonly action: RecommendedAction;
  /** True for `proceed` and `proceed_with_caution`: the agent may fetch the target. */
  readonly shouldFetch: boolean;
  /** True for `deny`. */
  readonly isDenied: boolean;
  /** True when the service flags the decision for review, or recommends `escalate_to_human`. */
  readonly requiresHumanReview: boolean;
  /** `validity.valid_until`: the decision should not be reused after it. */
  readonly validUntil: Date;
  /** `decision.reason_codes`, e.g. `NEWLY_REGISTERED_DOMAIN`. */
  readonly reasonCodes: readonly ReasonCode[];

  /**
   * Reads the answer of `decide`. The few fields read here are checked even with `validateResponses` off: an answer
   * without them is a `ResponseValidationError`, never a `TypeError` from deep inside.
   */
  constructor(result: DecisionResult) {
    const body = result as unknown as Record<string, Record<string, unknown> | null | undefined> | null | undefined;
    const missing = READ_FIELDS.find(([group, field]) => (body?.[group]?.[field] ?? undefined) === undefined);
    if (missing) throw new ResponseValidationError('decide', 200, [{ path: missing.join('.'), message: 'is missing' }]);
    this.result = result;
    this.action = result.decision.recommended_action;
    this.shouldFetch = FETCHABLE_ACTIONS.has(this.action);
    this.isDenied = this.action === 'deny';
    this.requiresHumanReview = result.uncertainty.requires_human_review || this.action === 'escalate_to_human';
    this.validUntil = new Date(result.validity.valid_until);
    this.reasonCodes = result.decision.reason_codes;
  }

  /** Serialises as the service's response. */
  toJSON(): DecisionResult {
    return this.result;
  }
}
