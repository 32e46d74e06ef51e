/** Helpers shared by this package's tests (not part of the build). */
import { type Mock, vi } from 'vitest';

/** Credentials for tests: canaries that must never show up in errors or logs. */
export const CANARY = {
  login: 'canary-login-7f3a9c2e',
  authToken: 'canary-secret-token-5b2e81d4',
  accessToken: 'canary-secret-access-91c4e0aa',
} as const;

export const BASIC = { login: CANARY.login, authToken: CANARY.authToken } as const;
export const BEARER = { accessToken: CANARY.accessToken } as const;

export const BASE_URL = 'https://store.test/v1';

/** A `fetch` stand-in that answers each request with `respond(request, index)`. */
export function fakeFetch(
  respond: (request: Request, index: number) => Response | Promise<Response> = () => Response.json({}),
): Mock<typeof fetch> {
  let calls = 0;
  return vi.fn<typeof fetch>(async (input) => respond(input as Request, calls++));
}

/** The requests a {@link fakeFetch} received, in order. */
export function sentRequests(fetchMock: Mock<typeof fetch>): Request[] {
  return fetchMock.mock.calls.map(([input]) => input as Request);
}

/** A JSON response with the given status and headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers });
}
