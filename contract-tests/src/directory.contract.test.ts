import { DirectoryClient } from '@agent-apis/directory';
import { validators } from '@agent-apis/directory/validators';
import { defineContractSuite } from './suite.ts';

await defineContractSuite(
  'directory',
  (target, fetch) => new DirectoryClient({ baseUrl: target.baseUrl, fetch, cache: false }),
  validators,
);
