import { StoreClient } from '@agent-apis/store';
import { validators } from '@agent-apis/store/validators';
import { STORE_LIFECYCLES } from './lifecycles-store.ts';
import { defineContractSuite } from './suite.ts';

await defineContractSuite(
  'store',
  // No client-side rate limit against the mock: the suite measures the contract, not the budget.
  (target, fetch) => new StoreClient({ baseUrl: target.baseUrl, ...target.credentials, fetch, rateLimit: false }),
  validators,
  { lifecycles: STORE_LIFECYCLES },
);
