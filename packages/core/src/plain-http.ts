/**
 * Credentials over plain `http`: they would cross the network in clear, so a client with credentials refuses a
 * plain-http base URL to a host that is not loopback unless `allowInsecureHttp` says so. Checked with the call path,
 * before the first request (the import of a client carries none of it).
 */
import { InvalidBaseUrlError } from './input-errors.js';

/** Throws an {@link InvalidBaseUrlError} naming `allowInsecureHttp` when `baseUrl` would carry credentials in clear. */
export function refusePlainHttp(client: string, baseUrl: string, allowInsecureHttp: boolean | undefined): void {
  const url = new URL(baseUrl);
  // Loopback as `checkBaseUrl` counts it (api-client.ts), without importing the client's module into the call path.
  const loopback = /^(localhost|.*\.localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/.test(url.hostname);
  if (url.protocol !== 'http:' || loopback || allowInsecureHttp === true) return;
  throw new InvalidBaseUrlError(
    `${client} baseUrl ${url.origin} would send credentials in clear (plain http, not loopback): use https, or allowInsecureHttp: true`,
  );
}
