/**
 * The check of a client's credentials over plain `http`, made at its first call (so it loads with the call path, not
 * at import): credentials would cross the network in clear, so a client with credentials refuses a plain-http base
 * URL to a host that is not loopback unless `allowInsecureHttp` says so.
 */

import { isLoopback } from './client-checks.js';
import { InvalidBaseUrlError } from './errors.js';

/** Throws an {@link InvalidBaseUrlError} naming `allowInsecureHttp` when `baseUrl` would carry credentials in clear. */
export function refusePlainHttp(client: string, baseUrl: string, allowInsecureHttp: boolean | undefined): void {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || isLoopback(url.hostname) || allowInsecureHttp === true) return;
  throw new InvalidBaseUrlError(
    `${client} baseUrl ${url.origin} would send credentials in clear (plain http, not loopback): use https, or allowInsecureHttp: true`,
  );
}
