/** What core's tests share: an operation row and the service config a test client is built with. Not shipped. */
import type { Operation } from './operations.js';

/** `GET /things/{name}`: one path parameter, nothing else. */
export const getThing = {
  id: 'getThing',
  method: 'GET',
  path: '/things/{name}',
  pathParams: ['name'],
} as const satisfies Operation;

/** The service half of a test client's config (validators that check nothing). */
export const testService = {
  loadValidators: async () => ({ validators: {} }),
  validatorsEntry: '@agent-apis/test/validators',
};
