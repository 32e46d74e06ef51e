/**
 * The one redirect rule of the clients (which statuses redirect, where to, with which method), published as
 * `@agent-apis/core/service`, and the transport's use of it: the transport follows a hop only when it stays on the
 * origin of the request, with the request's headers; trust's `guardedFetch` follows any hop, deciding on each host,
 * and drops credentials when a hop changes origin.
 */
/** Statuses that redirect with a `Location` (304 and the obsolete 305/306 do not). */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** One hop of a redirect chain. */
export interface RedirectHop {
  /** 303, and 301/302 of a POST, continue as a GET without body; the others keep the method and body. */
  method: string;
  url: URL;
  /** Whether the hop stays on the origin of the request it answers. */
  sameOrigin: boolean;
  /** Whether the hop turned the request into a GET, leaving its body (and content type) behind. */
  toGet: boolean;
}

/** Where a response to `method url` redirects, or undefined when it is no redirect or its `Location` does not parse. */
export function redirectHop(
  method: string,
  url: string,
  response: { status: number; headers: { get(name: string): string | null } },
): RedirectHop | undefined {
  const location = response.headers.get('location');
  if (!REDIRECT_STATUSES.has(response.status) || location === null) return undefined;
  let target: URL;
  try {
    target = new URL(location, url);
  } catch {
    return undefined;
  }
  const toGet = response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST');
  return { method: toGet ? 'GET' : method, url: target, sameOrigin: target.origin === new URL(url).origin, toGet };
}

/** The transport's use of the rule: where a redirect leads when it stays on the request's origin. */
export function sameOriginRedirect(
  request: { method: string; url: string; headers: Headers },
  response: Response,
): { method: string; url: string; headers: Headers } | undefined {
  const hop = redirectHop(request.method, request.url, response);
  if (!hop?.sameOrigin) return undefined;
  return { method: hop.method, url: hop.url.href, headers: new Headers(request.headers) };
}
