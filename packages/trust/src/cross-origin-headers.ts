/**
 * What a request keeps when a redirect sends it to another origin: no credential header, by core's one list of
 * them. Loaded at the first cross-origin hop of `guardedFetch`, never at import.
 */
import { isCredentialHeader } from '@agent-apis/core/call';

/** Deletes from `headers` every header core counts as a credential (`Authorization`, `Cookie`, `X-API-Key`, …). */
export function dropCredentialHeaders(headers: Headers): void {
  for (const name of [...headers.keys()]) if (isCredentialHeader(name)) headers.delete(name);
}
