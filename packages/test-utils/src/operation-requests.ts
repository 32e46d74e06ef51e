/**
 * Raw requests of operations, for code that sees `Request`s rather than typed calls (stand-in servers, benchmarks,
 * the transport's tests): naming the operation a request belongs to, and sending a `Request` through a transport as
 * a `fetch`. Shapes are structural, so this depends on no workspace package.
 */

/** What a matcher reads of an operation row (`Operation` of `@agent-apis/core`). */
export interface OperationRoute {
  readonly method: string;
  readonly path: string;
}

/** The operation a request belongs to: its id and `METHOD /path` template. */
export interface MatchedOperation {
  id: string;
  route: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Names the operation a request belongs to, from its method and URL path: `{ id, route }`. A template matches at the
 * end of the URL path, so any base path (`/v1`, `/api`) in front of it is fine; literal paths win over templated ones.
 */
export function operationMatcher(
  operations: Readonly<Record<string, OperationRoute>>,
): (request: Request) => MatchedOperation | undefined {
  const routes = Object.entries(operations)
    .map(([id, { method, path }]) => {
      const variables = path.match(/\{[^}]+\}/g)?.length ?? 0;
      const source = path
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join('[^/]+');
      return {
        id,
        method: method.toUpperCase(),
        route: `${method.toUpperCase()} ${path}`,
        variables,
        regex: new RegExp(`${source}$`),
      };
    })
    .sort((a, b) => a.variables - b.variables);
  return (request) => {
    const method = request.method.toUpperCase();
    const pathname = new URL(request.url).pathname;
    const match = routes.find((route) => route.method === method && route.regex.test(pathname));
    return match ? { id: match.id, route: match.route } : undefined;
  };
}

/** What {@link createFetch} sends through (`Transport` of `@agent-apis/core/call`). */
export interface TransportLike {
  send(call: {
    method: string;
    url: string;
    headers: Headers;
    body: string | undefined;
    signal: AbortSignal;
  }): Promise<Response>;
}

/**
 * The transport `createTransport(options)` builds, as a `fetch`: a `Request` (or fetch's arguments) is read into one
 * call, its body into a string first.
 */
export function createFetch<Options>(
  createTransport: (options: Options) => TransportLike,
  options: Options,
): typeof fetch {
  const transport = createTransport(options);
  return async (input, init) => {
    // A `Request` passed with an `init` is cloned first, so the caller's body is never consumed.
    const request =
      input instanceof Request
        ? init === undefined
          ? input
          : new Request(input.clone(), init)
        : new Request(input, init);
    const body = request.body ? await request.text() : undefined;
    return transport.send({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      signal: request.signal,
    });
  };
}
