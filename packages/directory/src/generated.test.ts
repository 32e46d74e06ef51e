import { finalSpecOperationIds } from '@agent-apis/codegen/final-spec';
import { jsonFetch, onlyRequest } from '@agent-apis/test-utils/fetch';
import { expectOneFunctionPerOperation } from '@agent-apis/test-utils/generated';
import { useMswServer } from '@agent-apis/test-utils/msw';
import { describe, expect, it } from 'vitest';
import { createDirectoryClient } from './client.js';
import * as functions from './gen/api.gen.js';
import { getMockHandlers } from './gen/msw.gen.js';
import { operations } from './gen/operations.gen.js';
import { validators } from './gen/validators.gen.js';

const BASE_URL = 'https://directory.test';

describe('generated directory code', () => {
  it('has one row in operations.gen.ts and one function in api.gen.ts per operation of the final spec (11)', async () => {
    const operationIds = expectOneFunctionPerOperation(await finalSpecOperationIds('directory'), functions, operations);
    expect(operationIds).toHaveLength(11);
  });

  it('sends search as GET /api/search with the query serialized, and resolves to the parsed body', async () => {
    const page = { query: 'github', results: { mcp: [{ owner: 'octo', repo: 'server' }] } };
    const fetch = jsonFetch(page);
    const client = createDirectoryClient({ baseUrl: BASE_URL, fetch, cache: false });
    const result = await functions.search(client, { query: { q: 'github', type: 'mcp', limit: 5 } });
    const sent = onlyRequest(fetch);
    expect(sent.method).toBe(operations.search.method);
    expect(sent.url).toBe(`${BASE_URL}${operations.search.path}?q=github&type=mcp&limit=5`);
    expect(result).toEqual(page);
  });

  describe('with the generated MSW handlers', () => {
    useMswServer(getMockHandlers());

    it('answers getMcpServer with a body that the generated zod schema accepts', async () => {
      const client = createDirectoryClient({ baseUrl: BASE_URL, cache: false });
      const result = await functions.getMcpServer(client, { path: { owner: 'octo', repo: 'server' } });
      expect(validators.getMcpServer.response.safeParse(result).error).toBeUndefined();
    });
  });
});
