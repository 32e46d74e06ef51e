/**
 * A decision with the questions an agent asks of it answered up front: may I fetch, is it denied, does a
 * person need to look, until when does it hold.
 */
import { type ResponseIssue, ResponseValidationError } from '@agent-apis/core';
import type { DecisionResult, ReasonCode, RecommendedAction } from './gen/types.gen.js';

/** Actions under which the agent may fetch the target. */
const FETCHABLE_ACTIONS: ReadonlySet<RecommendedAction> = new Set(['proceed', 'proceed_with_caution']);

/** What a field read from a decision must hold, and how to say so. */
interface FieldRule {
  holds: (value: unknown) => boolean;
  expected: string;
}

const STRING: FieldRule = { holds: (value) => typeof value === 'string', expected: 'a string' };
const BOOLEAN: FieldRule = { holds: (value) => typeof value === 'boolean', expected: 'a boolean' };
const STRINGS: FieldRule = {
  holds: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  expected: 'an array of strings',
};

/** The fields a decision is read from, checked (present, of their type) even with `validateResponses` off. */
const READ_FIELDS = [
  ['decision', 'recommended_action', STRING],
  ['decision', 'reason_codes', STRINGS],
  ['uncertainty', 'requires_human_review', BOOLEAN],
  ['validity', 'valid_until', STRING],
] as const;

/** The first field of {@link READ_FIELDS} missing from `result` or of another type, as a response issue. */
function readFieldIssue(result: unknown): ResponseIssue | undefined {
  const body = result as Record<string, Record<string, unknown> | null | undefined> | null | undefined;
  for (const [group, field, rule] of READ_FIELDS) {
    const value = body?.[group]?.[field] ?? undefined;
    if (value === undefined) return { path: `${group}.${field}`, message: 'is missing' };
    if (!rule.holds(value)) {
      const found = Array.isArray(value) ? 'an array holding another type' : `a ${typeof value}`;
      return { path: `${group}.${field}`, message: `must be ${rule.expected}, got ${found}` };
    }
  }
  return undefined;
}

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
   * without them, or with one of another type, is a `ResponseValidationError` naming the field, never a `TypeError`
   * from deep inside (a guard describing a deny whose `reason_codes` is no array, say).
   */
  constructor(result: DecisionResult) {
    const issue = readFieldIssue(result);
    if (issue) throw new ResponseValidationError('decide', 200, [issue]);
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
