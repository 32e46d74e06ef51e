/**
 * A loopback stand-in of the trust service's `POST /v1/decide` for fleet tests and the workers benchmark: it
 * answers after `latencyMs` with a schema-shaped decision (`deny` for targets starting with `bad`, `proceed`
 * otherwise) valid for `ttlSeconds`, and counts the scans it made per target.
 */
import { createServer } from 'node:http';
import { listenOnLoopback } from './processes.ts';

export interface DecideStandIn {
  /** Base URL, `http://127.0.0.1:<port>/api`. */
  url: string;
  /** Scans per target value. */
  scans: Map<string, number>;
  close(): Promise<void>;
}

let counter = 0;

export async function startDecideStandIn(
  options: { latencyMs?: number; ttlSeconds?: number } = {},
): Promise<DecideStandIn> {
  const scans = new Map<string, number>();
  const ttlSeconds = options.ttlSeconds ?? 3_600;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      if (body.length < 65_536) body += chunk.toString();
    });
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/v1/decide')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      let parsed: { target?: { type?: string; value?: string }; interaction?: Record<string, string> };
      try {
        parsed = JSON.parse(body);
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad json"}');
        return;
      }
      const target = { type: parsed.target?.type ?? 'domain', value: parsed.target?.value ?? '' };
      scans.set(target.value, (scans.get(target.value) ?? 0) + 1);
      const action = target.value.startsWith('bad') ? 'deny' : 'proceed';
      const now = Date.now();
      counter += 1;
      const decision = {
        request_id: `dec_${counter.toString(16).padStart(26, '0')}`,
        version: '2026-03-19',
        target: { ...target, normalized: target.value.toLowerCase() },
        interaction: parsed.interaction ?? { kind: 'fetch', mode: 'read_only', sensitivity: 'medium' },
        policy_applied: { profile: 'balanced', policy_version: 'p_2026_03_v1' },
        scores: {
          trust: { score: action === 'deny' ? 10 : 80, confidence: 0.9 },
          threat: { score: action === 'deny' ? 90 : 10, confidence: 0.85 },
          deviation: { score: 12, confidence: 0.82 },
        },
        decision: {
          recommended_action: action,
          action_confidence: 0.88,
          reason_codes: [action === 'deny' ? 'KNOWN_MALICIOUS_INFRASTRUCTURE' : 'LONG_OPERATIONAL_HISTORY'],
          decision_rationale: { primary_reason_codes: [], uncertainty_influencers: [] },
        },
        uncertainty: { state: 'low', requires_human_review: false, drivers: [] },
        validity: {
          evaluated_at: new Date(now).toISOString(),
          valid_until: new Date(now + ttlSeconds * 1_000).toISOString(),
          ttl_seconds: ttlSeconds,
        },
      };
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(decision));
      }, options.latencyMs ?? 200);
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  return { url: `${origin}/api`, scans, close };
}
