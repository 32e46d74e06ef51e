/**
 * A loopback stand-in of the trust API: the API key required (X-API-Key or Bearer), one call at a time per key
 * (an overlapping call gets the documented 409 `concurrency_conflict`), bodies checked (400), and every domain
 * evaluated counted as a scan. Answers are the realistic records of `trust-records.json` (per host where it has one:
 * allow, deny, sandbox, escalate), evaluated at the time of the call and valid for their ttl from then, for the
 * interaction and policy the call sent (echoed; the SDKs' interaction and the spec's default policy when it sent
 * none). A score batch longer than the spec's `maxItems` is a 400 (strict) or scored whole (lenient).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorAnswer, type InputMode, loadDocument, MOCK_ONLY_HEADERS, router, type StandIn, serve } from './server.ts';

type Schema = { default?: unknown; maxItems?: number; properties?: Record<string, Schema> };

/** What the official SDKs send when a caller gives no interaction (the spec's `Interaction` description). */
const SDK_INTERACTION = { kind: 'fetch', mode: 'read_only', sensitivity: 'medium' };

/** The facts of the final spec a stand-in answers by: the default policy and the score batch's cap. */
function specFacts(): { defaultProfile: string; batchMax: number | undefined } {
  const schemas = (loadDocument('trust').components?.schemas ?? {}) as Record<string, Schema>;
  return {
    defaultProfile: String(schemas.Policy?.properties?.profile?.default ?? 'balanced'),
    batchMax: schemas.DomainScoreBatchRequest?.properties?.domains?.maxItems,
  };
}

const fields = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export interface TrustStandIn extends StandIn {
  scans: number;
  conflicts: number;
  mockHeaderRequests: string[];
}

export async function startTrustStandIn(options: {
  apiKey: string;
  latencyMs?: number;
  /** Planted violation: a `recommended_action` outside the documented enum. */
  plantDecisionEnum?: boolean;
  /**
   * `strict` (default): a malformed body is a 400. `lenient`: a batch endpoint given a bare array evaluates each
   * item as a domain (and bills a scan for each), as a forgiving real service might.
   */
  mode?: InputMode;
}): Promise<TrustStandIn> {
  const records = JSON.parse(readFileSync(join(import.meta.dirname, 'trust-records.json'), 'utf8')) as {
    decision: Record<string, unknown>;
    /** Sections of the decision that differ per host (scores, action, uncertainty…): allow, deny, sandbox, escalate. */
    targets: Record<string, Record<string, unknown>>;
    domainScore: Record<string, unknown>;
  };
  const error = (status: number, code: string, message: string) => errorAnswer('trust', status, message, code);
  const state = { scans: 0, conflicts: 0, mockHeaderRequests: [] as string[] };
  let busy = false;
  const facts = specFacts();
  /** A decision for `value`, made for the interaction and policy of `sent` (a decide body), echoed back. */
  const decide = (value: string, sent: Record<string, unknown> = {}) => {
    const host = URL.parse(value)?.hostname ?? value.toLowerCase().replace(/^www\./, '');
    const decision = structuredClone({ ...records.decision, ...records.targets[host] }) as Record<
      string,
      Record<string, unknown>
    >;
    decision.target = { type: 'domain', value, normalized: value.toLowerCase() };
    const interaction = fields(sent.interaction);
    decision.interaction = Object.fromEntries(
      Object.entries(SDK_INTERACTION).map(([name, fallback]) => [
        name,
        typeof interaction[name] === 'string' ? interaction[name] : fallback,
      ]),
    );
    const profile = fields(sent.policy).profile;
    decision.policy_applied = {
      ...decision.policy_applied,
      profile: typeof profile === 'string' ? profile : facts.defaultProfile,
    };
    // Evaluated now, valid for its ttl from now, as a live answer is.
    const ttlSeconds = Number(decision.validity?.ttl_seconds ?? 86_400);
    const now = Date.now();
    decision.validity = {
      evaluated_at: new Date(now).toISOString(),
      valid_until: new Date(now + ttlSeconds * 1_000).toISOString(),
      ttl_seconds: ttlSeconds,
    };
    if (options.plantDecisionEnum) decision.decision = { ...decision.decision, recommended_action: 'maybe_later' };
    return decision;
  };
  const score = (input: string) => ({ ...records.domainScore, input });
  const route = router('trust');
  const standIn = await serve(async ({ method, path, headers, body }) => {
    if (MOCK_ONLY_HEADERS.some((name) => name in headers)) state.mockHeaderRequests.push(`${method} ${path}`);
    const key = headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer /, '');
    if (key !== options.apiKey) return error(401, 'unauthorized', 'missing or invalid API key');
    if (busy) {
      state.conflicts++;
      return error(409, 'concurrency_conflict', 'another request of this key is in progress');
    }
    busy = true;
    try {
      const text = (v: unknown) => typeof v === 'string' && v.length > 0;
      const operation = route(method, path)?.row.id;
      if (options.mode === 'lenient' && Array.isArray(body) && method === 'POST') {
        if (operation === 'scoreDomainBatch') {
          state.scans += body.length;
          return { status: 200, body: { results: body.map((d) => score(String(d))) } };
        }
        if (operation === 'decideBatch') {
          state.scans += body.length;
          return { status: 200, body: { results: body.map((d) => decide(String(d))) } };
        }
      }
      const b = (body ?? {}) as Record<string, unknown>;
      if (method !== 'POST' || typeof body !== 'object' || Array.isArray(body) || body === null) {
        return error(400, 'invalid_request', 'a JSON object body is required');
      }
      switch (operation) {
        case 'decide': {
          const target = b.target as Record<string, unknown> | undefined;
          if (!target || !text(target.value)) return error(400, 'invalid_request', 'target.value is required');
          state.scans++;
          return { status: 200, body: decide(target.value as string, b) };
        }
        case 'decideBatch': {
          // The batch body is not published; this service wants `requests`, a list of single-decision bodies.
          if (!Array.isArray(b.requests) || b.requests.length === 0)
            return error(400, 'invalid_request', 'requests is required');
          const requests = (b.requests as unknown[]).map(fields);
          state.scans += requests.length;
          return {
            status: 200,
            body: { results: requests.map((r) => decide(String(fields(r.target).value), r)) },
          };
        }
        case 'scoreDomain':
          if (!text(b.input)) return error(400, 'invalid_request', 'input is required');
          state.scans++;
          return { status: 200, body: score(b.input as string) };
        case 'scoreDomainBatch': {
          if (!Array.isArray(b.domains) || b.domains.length === 0)
            return error(400, 'invalid_request', 'domains is required');
          if (options.mode !== 'lenient' && facts.batchMax !== undefined && b.domains.length > facts.batchMax)
            return error(400, 'invalid_request', `domains: at most ${facts.batchMax} per call`);
          state.scans += b.domains.length;
          return { status: 200, body: { results: b.domains.map((d) => score(String(d))) } };
        }
        default:
          return error(404, 'not_found', 'no such endpoint');
      }
    } finally {
      // Released when the answer is decided; the latency below still holds the lock, like a scan in progress.
      if (options.latencyMs) {
        setTimeout(() => {
          busy = false;
        }, options.latencyMs);
      } else busy = false;
    }
  }, options.latencyMs);
  return {
    ...standIn,
    mockHeaderRequests: state.mockHeaderRequests,
    get scans() {
      return state.scans;
    },
    get conflicts() {
      return state.conflicts;
    },
  };
}
