import * as functions from '@agent-apis/directory';
import { createDirectoryClient } from '@agent-apis/directory';
import { validators } from '@agent-apis/directory/validators';
import { defineContractSuite } from './suite.ts';

await defineContractSuite({
  service: 'directory',
  functions,
  createClient: (target, fetch) => createDirectoryClient({ baseUrl: target.baseUrl, fetch, cache: false }),
  validators,
  // No rate limit or quota is documented; the suite's requests are few and the answers cached at the edge.
  budget: {},
  reproduction: { baseUrlEnv: 'DIRECTORY_BASE_URL', auth: [] },
});
