import * as functions from '@agent-apis/store';
import { createStoreClient } from '@agent-apis/store';
import { validators } from '@agent-apis/store/validators';
import { STORE_LIFECYCLES } from '../engine/lifecycles-store.ts';
import { defineContractSuite } from './suite.ts';

await defineContractSuite({
  service: 'store',
  functions,
  // No client-side rate limit: against the mock the suite measures the contract, and live the run's budget paces.
  createClient: (target, fetch) =>
    createStoreClient({ baseUrl: target.baseUrl, ...target.credentials, fetch, rateLimit: false }),
  validators,
  // The store's documented limits, 20 a second and 800 a minute, kept with a margin (see live/budget.ts).
  budget: { rateLimit: { env: 'CONTRACT_STORE_RATE_LIMIT', default: '20/s,800/min' } },
  // The record families a write-enabled run creates, reads back and removes (see lifecycles.ts).
  lifecycles: STORE_LIFECYCLES,
  // A failure's reproduction names the credentials by their variables (OAuth token, else login and token).
  reproduction: {
    baseUrlEnv: 'STORE_BASE_URL',
    auth: process.env.STORE_ACCESS_TOKEN
      ? ['-H', '"Authorization: Bearer $STORE_ACCESS_TOKEN"']
      : ['-u', '"$STORE_LOGIN:$STORE_AUTH_TOKEN"'],
  },
});
