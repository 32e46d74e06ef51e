import { expectOneSdkFunctionPerOperation, jsonFetch, onlyRequest } from '@agent-apis/codegen/testing';
import { useMswServer } from '@agent-apis/test-utils/msw';
import { describe, expect, it } from 'vitest';
import { getMockHandlers } from './gen/msw.gen.js';
import { operations } from './gen/operations.gen.js';
import { createClient, createConfig } from './gen/sdk/client/index.gen.js';
import * as sdk from './gen/sdk/sdk.gen.js';
import { validators } from './gen/validators.gen.js';

const BASE_URL = 'https://directory.test';

describe('generated directory SDK', () => {
  it('has one function per operation of the final spec (11), each listed in operations.gen.ts', async () => {
    const operationIds = await expectOneSdkFunctionPerOperation('directory', sdk, operations);
    expect(operationIds).toHaveLength(11);
  });

  it('sends search as GET /api/search with the query serialized, and resolves to the parsed body', async () => {
    const page = { query: 'github', results: { mcp: [{ owner: 'octo', repo: 'server' }] } };
    const fetch = jsonFetch(page);
    const client = createClient(createConfig({ baseUrl: BASE_URL, fetch, throwOnError: true }));

    const result = await sdk.search({ client, query: { q: 'github', type: 'mcp', limit: 5 } });

    const sent = onlyRequest(fetch);
    expect(sent.method).toBe(operations.search.method);
    expect(sent.url).toBe(`${BASE_URL}${operations.search.path}?q=github&type=mcp&limit=5`);
    expect(result).toEqual(page);
  });

  describe('with the generated MSW handlers', () => {
    useMswServer(getMockHandlers());

    it('answers getMcpServer with a body that the generated zod schema accepts', async () => {
      const client = createClient(createConfig({ baseUrl: BASE_URL, throwOnError: true }));
      const result = await sdk.getMcpServer({ client, path: { owner: 'octo', repo: 'server' } });
      expect(validators.getMcpServer.response.safeParse(result).error).toBeUndefined();
    });
  });
});
