/**
 * What a client loads at its first call: the input check, what inputs become on the wire, and the transport (built
 * from the client's options). One module, so that bundlers that split
 * code put both in one chunk, fetched once.
 */
import { type Operation, type OperationCallOptions, routeOf, type WithResponse } from '../../operations.js';
import type { ClientOptions, ServiceTransport } from './client-options.js';
import { validateClientLimits, validateOperationInput, validateRequestOptions } from './input-check.js';
import { refusePlainHttp } from './plain-http.js';
import { parseBuffered } from './response-body.js';
import { type CreateFetchOptions, createTransport, type Transport } from './transport.js';
import { clientFetchOptions } from './transport-options.js';
import { callHeaders, expandPath, jsonBody, serializeQuery } from './wire-encoding.js';

/** What a client fixed at construction and hands to its call path. */
export interface ClientCallSettings {
  /** The class name, for error messages. */
  client: string;
  /** The checked base URL, without trailing slash. */
  baseUrl: string;
  /** The path the API lives under (`/v1`), named by a 404's hint. */
  basePath: string | undefined;
  /** The credential headers, set after the call's own headers. */
  authHeaders: readonly [string, string][];
  /** Whether the client sends credentials (refused over plain http to a non-loopback host). */
  credentialed: boolean;
  /** The client's options, headers checked. */
  options: ClientOptions;
  service: ServiceTransport;
}

/**
 * The client's transport, after the checks that need the call path's code: its limits (a bad one fails every call,
 * before sending) and credentials over plain http. `extras` are what the service loads with it (limiter, cache).
 */
export function clientTransport(
  settings: ClientCallSettings,
  extras: Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse' | 'cache'> | undefined,
): Promise<Transport> {
  validateClientLimits(settings.client, settings.options);
  if (settings.credentialed) refusePlainHttp(settings.client, settings.baseUrl, settings.options.allowInsecureHttp);
  return readyTransport({ ...clientFetchOptions(settings.options, settings.service), ...extras });
}

/**
 * One typed call: options and inputs validated, the request built (URL from the descriptor, headers checked, body
 * serialised once), sent, parsed. Whatever is refused is a `RequestValidationError`, before anything is sent.
 */
export async function sendCall(
  settings: ClientCallSettings,
  transport: Transport,
  operation: Operation,
  options: OperationCallOptions,
): Promise<WithResponse<unknown>> {
  // The options' own shape first: `null`, a signal that is none, headers of no known form.
  validateRequestOptions(operation.id, options);
  validateOperationInput(operation.id, operation, options);
  const headers = callHeaders(options.headers, operation.id);
  for (const [name, value] of settings.authHeaders) headers.set(name, value);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = jsonBody(options.body, operation.id);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const route = routeFor(operation);
  const sent = await transport.sendBuffered({
    method: operation.method,
    url: settings.baseUrl + expandPath(operation.path, options.path) + serializeQuery(operation.query, options.query),
    headers,
    body,
    signal: options.signal,
    timeout: options.timeout,
    maxRetries: options.maxRetries,
    operation: { id: operation.id, route, basePath: settings.basePath },
    expectJson: operation.successJson !== false,
  });
  return { data: parseBuffered(sent, operation, route), response: sent.response };
}

let routes: WeakMap<Operation, string> | undefined;

/** `METHOD /path` of a row, worked out once per row (rows are constants). */
function routeFor(operation: Operation): string {
  routes ??= new WeakMap();
  let route = routes.get(operation);
  if (route === undefined) {
    route = routeOf(operation);
    routes.set(operation, route);
  }
  return route;
}

/**
 * The transport, built once what it needs has loaded: the engine of its `HttpCache` (a cache of the caller's own
 * making may have nothing to load).
 */
export async function readyTransport(options: CreateFetchOptions): Promise<Transport> {
  const { cache } = options;
  if (cache && typeof cache.load === 'function') await cache.load();
  return createTransport(options);
}
