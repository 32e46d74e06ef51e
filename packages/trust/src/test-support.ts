/** Test fixtures: schema-valid decisions and a `fetch` stand-in that answers `POST /v1/decide` like the service. */
import { fetchStub, jsonResponse, requestOf } from '@agent-apis/test-utils/fetch';
import type { Mock } from 'vitest';
import type {
  AppliedInteraction,
  DecideRequest,
  DecisionResult,
  PolicyProfile,
  ReasonCode,
  RecommendedAction,
  Target,
} from './gen/types.gen.js';

/** A credential that must never show up in errors or logs. */
export const CANARY_KEY = 'sk_ent0_canary-secret-7f3a9c2e41';

/** 2026-05-16T09:30:00Z, the clock every test starts from. */
export const T0 = Date.UTC(2026, 4, 16, 9, 30);

/** What a fixture decision may vary. */
export interface DecisionFixture {
  action?: RecommendedAction;
  target?: Target;
  interaction?: AppliedInteraction;
  profile?: PolicyProfile;
  reasonCodes?: ReasonCode[];
  requiresHumanReview?: boolean;
  /** Evaluation time in ms (default {@link T0}). */
  evaluatedAt?: number;
  ttlSeconds?: number;
  /** Overrides `valid_until` (default evaluatedAt + ttl). */
  validUntil?: string;
}

let requestCounter = 0;

/** A decision that matches the spec's schema. */
export function decisionResult(fixture: DecisionFixture = {}): DecisionResult {
  const target = fixture.target ?? { type: 'domain', value: 'example.com' };
  const evaluatedAt = fixture.evaluatedAt ?? T0;
  const ttlSeconds = fixture.ttlSeconds ?? 3_600;
  const reasonCodes = fixture.reasonCodes ?? ['LONG_OPERATIONAL_HISTORY'];
  requestCounter += 1;
  return {
    request_id: `dec_${requestCounter.toString(16).padStart(26, '0')}`,
    version: '2026-03-19',
    target: { ...target, normalized: target.value.toLowerCase() },
    interaction: fixture.interaction ?? { kind: 'fetch', mode: 'read_only', sensitivity: 'medium' },
    policy_applied: { profile: fixture.profile ?? 'balanced', policy_version: 'p_2026_03_v1' },
    scores: {
      trust: { score: 80, confidence: 0.9 },
      threat: { score: 10, confidence: 0.85 },
      deviation: { score: 12, confidence: 0.82 },
    },
    decision: {
      recommended_action: fixture.action ?? 'proceed',
      action_confidence: 0.88,
      reason_codes: reasonCodes,
      decision_rationale: { primary_reason_codes: reasonCodes.slice(0, 1), uncertainty_influencers: [] },
    },
    uncertainty: { state: 'low', requires_human_review: fixture.requiresHumanReview ?? false, drivers: [] },
    validity: {
      evaluated_at: new Date(evaluatedAt).toISOString(),
      valid_until: fixture.validUntil ?? new Date(evaluatedAt + ttlSeconds * 1_000).toISOString(),
      ttl_seconds: ttlSeconds,
    },
  };
}

/**
 * A `fetch` that answers each decide request with a decision echoing its target, interaction and policy;
 * `fixtureFor` picks the rest per request (e.g. the action by domain).
 */
export function decideFetch(fixtureFor: (body: DecideRequest) => DecisionFixture = () => ({})): Mock<typeof fetch> {
  return fetchStub(async (request) => {
    const body = (await request.clone().json()) as DecideRequest;
    const interaction = body.interaction as AppliedInteraction | undefined;
    return Response.json(
      decisionResult({ target: body.target, interaction, profile: body.policy?.profile, ...fixtureFor(body) }),
    );
  });
}

/** The JSON bodies a `fetch` mock was called with, in order. */
export async function sentBodies(fetchMock: Mock<typeof fetch>): Promise<unknown[]> {
  return Promise.all(fetchMock.mock.calls.map(([input, init]) => requestOf(input, init).clone().json()));
}

/** A `fetch` that answers every request with `status` and a JSON error body. */
export function errorFetch(status: number, headers: HeadersInit = {}, body: unknown = undefined): Mock<typeof fetch> {
  return fetchStub(() =>
    jsonResponse(body ?? { error: { code: 'error', message: `failed with ${status}` } }, { status, headers }),
  );
}
