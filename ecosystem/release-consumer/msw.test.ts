/**
 * Runs inside the consumer project: the `./msw` handlers of the installed packages serve the clients of the
 * same packages, with no network, and any request without a handler fails.
 */
import { APIConnectionError } from '@agent-apis/core';
import { DirectoryClient } from '@agent-apis/directory';
import { getMockHandlers as directoryHandlers, getGetSkillMockHandler } from '@agent-apis/directory/msw';
import { StoreClient } from '@agent-apis/store';
import { getMockHandlers as storeHandlers } from '@agent-apis/store/msw';
import { ListProductsResponse } from '@agent-apis/store/schemas';
import { TrustClient } from '@agent-apis/trust';
import { getDecideMockHandler, getDecideResponseMock } from '@agent-apis/trust/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const server = setupServer(...directoryHandlers(), ...storeHandlers());
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const directory = new DirectoryClient({ baseUrl: 'https://directory.example', validateResponses: true });
const trust = new TrustClient({ apiKey: 'sk_ent0_consumer', baseUrl: 'https://trust.example/api', maxRetries: 0 });

it('serves a directory lookup from a handler with a fixed answer', async () => {
  const skill = {
    slug: 'pdf-tools',
    name: 'PDF tools',
    source: 'community',
    url: 'https://directory.example/skills/pdf-tools',
    docsUrl: 'https://docs.example/pdf-tools',
    repoUrl: 'https://git.example/pdf-tools',
  } as const;
  server.use(getGetSkillMockHandler(skill));

  await expect(directory.skills.get({ slug: 'pdf-tools' })).resolves.toEqual(skill);
});

it('answers store operations with generated data that matches the published zod schema', async () => {
  const store = new StoreClient({
    login: 'consumer',
    authToken: 'consumer-token',
    baseUrl: 'https://store.example/v1',
  });

  const products = await store.api.listProducts({ query: { limit: 3 } });

  expect(ListProductsResponse.safeParse(products).error).toBeUndefined();
});

it('turns a denied decision from the trust handler into the typed shortcuts', async () => {
  const denied = getDecideResponseMock();
  denied.decision.recommended_action = 'deny';
  server.use(getDecideMockHandler(denied));

  const decision = await trust.decide('example.com');

  expect(decision.isDenied).toBe(true);
  expect(decision.shouldFetch).toBe(false);
  expect(decision.result.request_id).toBe(denied.request_id);
});

it('fails a request that no handler serves instead of letting it reach the network', async () => {
  await expect(trust.decide('example.com')).rejects.toBeInstanceOf(APIConnectionError);
});
