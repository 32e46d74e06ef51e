/**
 * The transport's use of the redirect rule (`../../redirect.ts`): it follows a hop only when it stays on the origin of
 * the request, with the request's headers.
 */
import { redirectHop } from '../../redirect.js';

/** The transport's use of the rule: where a redirect leads when it stays on the request's origin. */
export function sameOriginRedirect(
  request: { method: string; url: string; headers: Headers },
  response: Response,
): { method: string; url: string; headers: Headers } | undefined {
  const hop = redirectHop(request.method, request.url, response);
  if (!hop?.sameOrigin) return undefined;
  return { method: hop.method, url: hop.url.href, headers: new Headers(request.headers) };
}
