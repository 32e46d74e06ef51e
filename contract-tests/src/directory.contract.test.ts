import { bindOperations, createFetch } from '@agent-apis/core';
import { operations } from '../../packages/directory/src/gen/operations.gen.ts';
import { createClient, createConfig } from '../../packages/directory/src/gen/sdk/client/index.gen.ts';
import * as sdk from '../../packages/directory/src/gen/sdk/sdk.gen.ts';
import { validators } from '../../packages/directory/src/gen/validators.gen.ts';
import { defineContractSuite } from './suite.ts';

await defineContractSuite(
  'directory',
  (target, fetch) => {
    const client = createClient(
      createConfig({
        baseUrl: target.baseUrl,
        fetch: createFetch({ fetch, maxRetries: 0 }),
        throwOnError: true,
        auth: () => target.credentials.apiKey,
      }),
    );
    return { api: bindOperations(sdk, operations, client) };
  },
  validators,
);
