import { expectOneSdkFunctionPerOperation, jsonFetch, onlyRequest } from '@agent-apis/codegen/testing';
import { useMswServer } from '@agent-apis/test-utils/msw';
import { describe, expect, it } from 'vitest';
import { getMockHandlers } from './gen/msw.gen.js';
import { operations } from './gen/operations.gen.js';
import { createClient, createConfig } from './gen/sdk/client/index.gen.js';
import * as sdk from './gen/sdk/sdk.gen.js';
import type { DecideRequest } from './gen/sdk/types.gen.js';
import { validators } from './gen/validators.gen.js';

const BASE_URL = 'https://trust.test/api';
const request: DecideRequest = {
  target: { type: 'domain', value: 'example.com' },
  interaction: { kind: 'fetch', mode: 'read_only', sensitivity: 'low' },
};

describe('generated trust SDK', () => {
  it('has one function per operation of the final spec, each listed in operations.gen.ts', async () => {
    const operationIds = await expectOneSdkFunctionPerOperation('trust', sdk, operations);
    expect(operationIds.length).toBeGreaterThanOrEqual(1);
  });

  it('sends decide as POST /v1/decide with the JSON body and the API key, and resolves to the parsed body', async () => {
    const decision = { request_id: 'dec_1', decision: { action: 'proceed' } };
    const fetch = jsonFetch(decision);
    const client = createClient(createConfig({ baseUrl: BASE_URL, fetch, throwOnError: true }));

    const result = await sdk.decide({ client, body: request, auth: () => 'test-key' });

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
      const client = createClient(createConfig({ baseUrl: BASE_URL, throwOnError: true }));
      const result = await sdk.decide({ client, body: request });
      expect(validators.decide.response.safeParse(result).error).toBeUndefined();
    });
  });
});
