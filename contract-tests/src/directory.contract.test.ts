import { DirectoryClient } from '@agent-apis/directory';
import { validators } from '../../packages/directory/src/gen/validators.gen.ts';
import { defineContractSuite } from './suite.ts';

await defineContractSuite(
  'directory',
  (target, fetch) => new DirectoryClient({ baseUrl: target.baseUrl, fetch, cache: false }),
  validators,
);
