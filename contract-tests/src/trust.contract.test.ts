import * as functions from '@agent-apis/trust';
import { createTrustClient } from '@agent-apis/trust';
import { validators } from '@agent-apis/trust/validators';
import { defineContractSuite } from './suite.ts';
import type { CallInput } from './values.ts';

/** How many scans a call spends: one per domain or target in a batch, else one. */
function scansOf(input: CallInput): number {
  const body = input.body as { domains?: unknown[]; targets?: unknown[] } | undefined;
  return body?.domains?.length ?? body?.targets?.length ?? 1;
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
    quota: { env: 'CONTRACT_TRUST_BUDGET', default: 3, unit: 'trust scan', cost: scansOf },
  },
});
