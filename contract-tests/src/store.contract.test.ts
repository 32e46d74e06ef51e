import { bindOperations, createFetch } from '@agent-apis/core';
import { operations } from '../../packages/store/src/gen/operations.gen.ts';
import { createClient, createConfig } from '../../packages/store/src/gen/sdk/client/index.gen.ts';
import * as sdk from '../../packages/store/src/gen/sdk/sdk.gen.ts';
import { validators } from '../../packages/store/src/gen/validators.gen.ts';
import { defineContractSuite } from './suite.ts';

await defineContractSuite(
  'store',
  (target, fetch) => {
    const client = createClient(
      createConfig({
        baseUrl: target.baseUrl,
        fetch: createFetch({ fetch, maxRetries: 0 }),
        throwOnError: true,
        auth: (scheme) =>
          scheme.scheme === 'basic' ? `${target.credentials.login}:${target.credentials.authToken}` : undefined,
      }),
    );
    return { api: bindOperations(sdk, operations, client) };
  },
  validators,
);
