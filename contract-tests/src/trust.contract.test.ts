import { TrustClient } from '@agent-apis/trust';
import { validators } from '@agent-apis/trust/validators';
import { defineContractSuite } from './suite.ts';

await defineContractSuite(
  'trust',
  (target, fetch) =>
    new TrustClient({ baseUrl: target.baseUrl, apiKey: target.credentials.apiKey ?? '', fetch, cache: false }),
  validators,
);
