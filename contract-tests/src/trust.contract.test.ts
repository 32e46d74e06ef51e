import { TrustClient } from '@agent-apis/trust';
import { validators } from '../../packages/trust/src/gen/validators.gen.ts';
import { defineContractSuite } from './suite.ts';

await defineContractSuite(
  'trust',
  (target, fetch) =>
    new TrustClient({ baseUrl: target.baseUrl, apiKey: target.credentials.apiKey ?? '', fetch, cache: false }),
  validators,
);
