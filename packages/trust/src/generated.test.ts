import { finalSpecOperationIds } from '@agent-apis/codegen/final-spec';
import { jsonFetch, onlyRequest } from '@agent-apis/test-utils/fetch';
import { expectOneFunctionPerOperation } from '@agent-apis/test-utils/generated';
import { useMswServer } from '@agent-apis/test-utils/msw';
import { describe, expect, it } from 'vitest';
import { createTrustClient } from './client.js';
import * as functions from './gen/api.gen.js';
import { getMockHandlers } from './gen/msw.gen.js';
import { operations } from './gen/operations.gen.js';
import type { DecideRequest } from './gen/types.gen.js';
import { validators } from './gen/validators.gen.js';

const BASE_URL = 'https://trust.test/api';
const request: DecideRequest = {
  target: { type: 'domain', value: 'example.com' },
  interaction: { kind: 'fetch', mode: 'read_only', sensitivity: 'low' },
};

describe('generated trust code', () => {
  it('has one row in operations.gen.ts and one function in api.gen.ts per operation of the final spec', async () => {
    const operationIds = expectOneFunctionPerOperation(await finalSpecOperationIds('trust'), functions, operations);
    expect(operationIds.length).toBeGreaterThanOrEqual(1);
  });

  it('sends decide as POST /v1/decide with the JSON body and the API key, and resolves to the parsed body', async () => {
    const decision = { request_id: 'dec_1', decision: { action: 'proceed' } };
    const fetch = jsonFetch(decision);
    const result = await functions.decide(createTrustClient({ apiKey: 'test-key', baseUrl: BASE_URL, fetch }), {
      body: request,
    });
    const sent = onlyRequest(fetch);
    expect(sent.method).toBe(operations.decide.method);
    expect(sent.url).toBe(`${BASE_URL}${operations.decide.path}`);
    expect(sent.headers.get('x-api-key')).toBe('test-key');
    expect(await sent.json()).toEqual(request);
    expect(result).toEqual(decision);
  });

  describe('with the generated MSW handlers', () => {
    useMswServer(getMockHandlers());

    it('answers decide with a body that the generated zod schema accepts', async () => {
      const result = await functions.decide(createTrustClient({ apiKey: 'test-key', baseUrl: BASE_URL }), {
        body: request,
      });
      expect(validators.decide.response.safeParse(result).error).toBeUndefined();
    });
  });
});
