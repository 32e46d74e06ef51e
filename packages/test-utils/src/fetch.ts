/** Stand-ins for `fetch` in unit tests: scripted answers, and what was sent. */
import { expect, type Mock, vi } from 'vitest';

/** A JSON response; `init.headers` add to (or replace) the JSON content type. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** `fetch`'s arguments as the one `Request` they describe (the clients pass a URL and init, or a `Request`). */
export function requestOf(input: RequestInfo | URL, init?: RequestInit): Request {
  return input instanceof Request && init === undefined ? input : new Request(input, init);
}

/** A `fetch` that answers each request with `respond(request, index)`, whatever form its arguments take. */
export function fetchStub(
  respond: (request: Request, index: number) => Response | Promise<Response>,
): Mock<typeof fetch> {
  // The Requests the calls made, in order: `sentRequests` hands out these (their signals, their bodies).
  const requests: Request[] = [];
  const stub = vi.fn<typeof fetch>(async (input, init) => {
    const request = requestOf(input, init);
    requests.push(request);
    return respond(request, requests.length - 1);
  });
  stubRequests.set(stub, requests);
  return stub;
}

const stubRequests = new WeakMap<object, Request[]>();

/**
 * A `fetch` for callers that may pass a URL and init rather than a `Request`: each call becomes a `Request`, is
 * kept in `received`, and is answered by `respond(request, call)`, `call` counting from 1.
 */
export function scriptedFetch(respond: (request: Request, call: number) => Response | Promise<Response>) {
  const received: Request[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const request = requestOf(input, init);
    received.push(request);
    return respond(request, received.length);
  });
  return { fetch, received };
}

/** A `fetch` that never answers, though it gives up when its request is aborted (like the real one). */
export function hangingFetch(): Mock<typeof fetch> {
  return fetchStub(
    (request) =>
      new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      }),
  );
}

/** The requests a stub received, in order. */
export function sentRequests(fetchMock: Mock<typeof fetch>): Request[] {
  const calls = fetchMock.mock.calls;
  const requests = stubRequests.get(fetchMock);
  // The last ones, as many as the calls on record (fewer after a `mockClear`).
  return requests
    ? requests.slice(requests.length - calls.length)
    : calls.map(([input, init]) => requestOf(input, init));
}

/** A `fetch` stand-in that answers every request with `body` as JSON. */
export function jsonFetch(body: unknown, status = 200): Mock<typeof fetch> {
  return fetchStub(() => Response.json(body, { status }));
}

/** The one request a stub received (fails the test unless it was called exactly once). */
export function onlyRequest(fetchMock: Mock<typeof fetch>): Request {
  expect(fetchMock).toHaveBeenCalledTimes(1);
  return sentRequests(fetchMock)[0] as Request;
}
