/** The MSW server the generated-handler tests run against. */
import { faker } from '@faker-js/faker';
import type { AnyHandler } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';

/** The faker seed the generated handlers answer with, so their bodies repeat from run to run. */
export const FAKER_SEED = 20_261_121;

/**
 * An MSW server with `handlers`, listening for the tests of the enclosing `describe` (or file): faker seeded,
 * and any request without a handler an error rather than a pass-through to the network.
 */
export function useMswServer(handlers: readonly AnyHandler[]): SetupServer {
  const server = setupServer(...handlers);
  beforeAll(() => {
    faker.seed(FAKER_SEED);
    server.listen({ onUnhandledFrame: 'error' });
  });
  afterAll(() => server.close());
  return server;
}
