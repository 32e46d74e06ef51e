/** Credentials and the base URL this package's tests share (the fetch fakes are `@agent-apis/test-utils/fetch`). */

/** Credentials for tests: canaries that must never show up in errors or logs. */
export const CANARY = {
  login: 'canary-login-7f3a9c2e',
  authToken: 'canary-secret-token-5b2e81d4',
  accessToken: 'canary-secret-access-91c4e0aa',
} as const;

export const BASIC = { login: CANARY.login, authToken: CANARY.authToken } as const;
export const BEARER = { accessToken: CANARY.accessToken } as const;

export const BASE_URL = 'https://store.test/v1';
