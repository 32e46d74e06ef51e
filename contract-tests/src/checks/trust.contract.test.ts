import * as functions from '@agent-apis/trust';
import { createTrustClient } from '@agent-apis/trust';
import { validators } from '@agent-apis/trust/validators';
import type { CallInput } from '../engine/values.ts';
import { defineContractSuite } from './suite.ts';

/**
 * How many scans a call may spend: one per domain or target in a batch, else one; a bare array body (the
 * malformed input of a negative check) as many as it has items, in case a lenient service evaluates each.
 */
function scansOf(input: CallInput): number {
  if (Array.isArray(input.body)) return Math.max(1, input.body.length);
  const body = input.body as { domains?: unknown[]; targets?: unknown[] } | undefined;
  return Math.max(1, body?.domains?.length ?? body?.targets?.length ?? 1);
}

await defineContractSuite({
  service: 'trust',
  functions,
  createClient: (target, fetch) =>
    createTrustClient({ baseUrl: target.baseUrl, apiKey: target.credentials.apiKey ?? '', fetch, cache: false }),
  validators,
  budget: {
    // The service answers overlapping calls of one key with 409.
    serial: true,
    // A free key has 150 scans a month; a nightly run spends at most CONTRACT_TRUST_BUDGET (default 3).
    quota: { env: 'CONTRACT_TRUST_BUDGET', unit: 'trust scan', cost: scansOf },
  },
  reproduction: { baseUrlEnv: 'TRUST_BASE_URL', auth: ['-H', '"X-API-Key: $ENTROPY0_API_KEY"'] },
});
