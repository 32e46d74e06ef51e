/**
 * A decision with the questions an agent asks of it answered up front: may I fetch, is it denied, does a
 * person need to look, until when does it hold.
 */
import { type ResponseIssue, ResponseValidationError } from '@agent-apis/core';
import type { DecisionResult, ReasonCode, RecommendedAction } from './gen/sdk/types.gen.js';

/** Actions under which the agent may fetch the target. */
const FETCHABLE_ACTIONS: ReadonlySet<RecommendedAction> = new Set(['proceed', 'proceed_with_caution']);

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
    const issues = shapeIssues(result);
    if (issues.length > 0) throw new ResponseValidationError('decide', 200, issues);
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What keeps `result` from being read as a decision: the fields the constructor reads, by path. */
function shapeIssues(result: unknown): ResponseIssue[] {
  if (!isObject(result)) return [{ path: '', message: 'must be an object' }];
  const issues: ResponseIssue[] = [];
  const { decision, uncertainty, validity } = result;
  if (!isObject(decision)) issues.push({ path: 'decision', message: 'must be an object' });
  else {
    if (typeof decision.recommended_action !== 'string') {
      issues.push({ path: 'decision.recommended_action', message: 'must be a string' });
    }
    if (!Array.isArray(decision.reason_codes)) {
      issues.push({ path: 'decision.reason_codes', message: 'must be an array' });
    }
  }
  if (!isObject(uncertainty) || typeof uncertainty.requires_human_review !== 'boolean') {
    issues.push({ path: 'uncertainty.requires_human_review', message: 'must be a boolean' });
  }
  if (
    !isObject(validity) ||
    typeof validity.valid_until !== 'string' ||
    Number.isNaN(Date.parse(validity.valid_until))
  ) {
    issues.push({ path: 'validity.valid_until', message: 'must be a date-time' });
  }
  return issues;
}
