/**
 * What the loopback stand-ins of the live services share: an HTTP server on 127.0.0.1 with an optional answer
 * latency, a log of every request it received, routing by the service's manifest (`@agent-apis/codegen/manifest`,
 * with the clients' own matcher), error bodies in the shape the manifest reads from the spec, and the server-side
 * reading of query parameters, strict (type, enum, bounds → 400) or lenient (clamped, ignored), both of which the
 * contracts allow.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type ManifestOperation, readManifest } from '@agent-apis/codegen/manifest';
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import type { ServiceName } from '@agent-apis/specs/services';
import { readFinalSpecSync } from '@agent-apis/test-utils/final-specs';
import { operationMatcher } from '@agent-apis/test-utils/operation-requests';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';

export interface LoggedRequest {
  method: string;
  path: string;
  /** The query string as received (with its `?`, or empty). */
  search: string;
  operation?: string;
  /** Header names as received (lower case). */
  headers: string[];
  status: number;
}

export interface Route {
  /** The operation's manifest row: its id, path template, parameter checks, safety class, success status. */
  row: ManifestOperation;
  /** The row's path template. */
  template: string;
  /** The request's path parameters, by name. */
  params: Record<string, string>;
}

export interface StandIn {
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

/** The final document, for the shapes of answers (schemas only: operation facts come from the manifest). */
export function loadDocument(service: ServiceName): OpenApiDocument {
  return readFinalSpecSync<OpenApiDocument>(service);
}

/** Each service's error body shape, read from its manifest at the first error answer, not at every one. */
const errorShapes = new Map<ServiceName, NonNullable<ReturnType<typeof readManifest>['errorBody']>>();

/**
 * An error answer of `service` in the body shape its manifest reads from the spec (`{ error }`,
 * `{ error: { code, message } }`, …); `{ message }` where the spec documents none.
 */
export function errorAnswer(service: ServiceName, status: number, message: string, code?: string): Answer {
  let shape = errorShapes.get(service);
  if (!shape) {
    shape = readManifest(service).errorBody ?? { message: '/message' };
    errorShapes.set(service, shape);
  }
  const body: Record<string, unknown> = {};
  const put = (pointer: string, value: string) => {
    const keys = pointer.split('/').slice(1);
    let node = body;
    for (const key of keys.slice(0, -1)) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1) as string] = value;
  };
  put(shape.message, message);
  if (shape.code && code) put(shape.code, code);
  return { status, body };
}

/** The path parameters of `path` under the row's template (matched at the end, so a base path in front is fine). */
function pathValues(row: ManifestOperation, path: string): Record<string, string> {
  const source = row.path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  const values = new RegExp(`${source}$`).exec(path)?.slice(1) ?? [];
  return Object.fromEntries((row.pathParams ?? []).map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
}

/**
 * Routes a request by the service's manifest with the clients' own matcher (core's `operationMatcher`: literal
 * segments win over parameters, `/products/count.json` before `/products/{id}.json`), and hands back its row.
 */
export function router(service: ServiceName): (method: string, path: string) => Route | undefined {
  const rows = Object.fromEntries(readManifest(service).operations.map((row) => [row.id, row]));
  // The matcher anchors templates at the end of a path only (any base path may come before): a root segment
  // before both templates and requests anchors them whole, so `/documents.json` cannot take `/orders/1/documents.json`.
  const root = '/stand-in-root';
  const match = operationMatcher(
    Object.fromEntries(Object.values(rows).map((row) => [row.id, { method: row.method, path: `${root}${row.path}` }])),
  );
  return (method, path) => {
    const found = match(new Request(`http://stand-in${root}${path}`, { method }));
    const row = found?.id ? rows[found.id] : undefined;
    return row && { row, template: row.path, params: pathValues(row, path) };
  };
}

/**
 * How a stand-in treats input outside the spec's rules. `strict`: a 400 naming the parameter. `lenient`, as many
 * real services (and the contracts) allow: a number out of range is clamped, an unknown enum value or a value of
 * the wrong type is ignored, a missing required query value is answered as if empty.
 */
export type InputMode = 'strict' | 'lenient';

/** The first query parameter that breaks its schema, as a message, or undefined. */
export function queryProblem(route: Route, query: URLSearchParams): string | undefined {
  for (const [name, schema] of Object.entries(route.row.query ?? {})) {
    const value = query.get(name);
    if (value === null) {
      if (schema.required) return `${name} is required`;
      continue;
    }
    if (Array.isArray(schema.enum) && !schema.enum.map(String).includes(value)) return `${name} not allowed`;
    if (schema.type === 'integer' || schema.type === 'number') {
      const number = Number(value);
      if (value.trim() === '' || Number.isNaN(number) || (schema.type === 'integer' && !Number.isInteger(number))) {
        return `${name} must be a number`;
      }
      if (typeof schema.minimum === 'number' && number < schema.minimum) return `${name} too small`;
      if (typeof schema.maximum === 'number' && number > schema.maximum) return `${name} too large`;
    }
  }
  return undefined;
}

/** The query as a lenient service reads it: out-of-range numbers clamped, unknown or malformed values dropped. */
export function lenientQuery(route: Route, query: URLSearchParams): URLSearchParams {
  const read = new URLSearchParams(query);
  for (const [name, schema] of Object.entries(route.row.query ?? {})) {
    const value = read.get(name);
    if (value === null) continue;
    if (Array.isArray(schema.enum) && !schema.enum.map(String).includes(value)) read.delete(name);
    else if (schema.type === 'integer' || schema.type === 'number') {
      const number = Number(value);
      if (value.trim() === '' || Number.isNaN(number)) read.delete(name);
      else {
        const low = typeof schema.minimum === 'number' ? Math.max(schema.minimum, number) : number;
        read.set(name, String(typeof schema.maximum === 'number' ? Math.min(schema.maximum, low) : low));
      }
    }
  }
  return read;
}

/** Checks `query` the `mode` way: strict → the problem (answer 400), lenient → the query as the service reads it. */
export function readQuery(
  mode: InputMode,
  route: Route,
  query: URLSearchParams,
): { problem: string } | { query: URLSearchParams } {
  if (mode === 'lenient') return { query: lenientQuery(route, query) };
  const problem = queryProblem(route, query);
  return problem ? { problem } : { query };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 1 << 20) return undefined;
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for('invalid-json');
  }
}

export interface HandlerRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** Starts a loopback server that answers each request with `handle` after `latencyMs`. */
export async function serve(
  handle: (request: HandlerRequest, log: LoggedRequest) => Answer | Promise<Answer>,
  latencyMs = 0,
): Promise<StandIn> {
  const requests: LoggedRequest[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const log: LoggedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      headers: Object.keys(request.headers),
      status: 0,
    };
    requests.push(log);
    const body = await readBody(request);
    const answer = await handle(
      { method: log.method, path: url.pathname, query: url.searchParams, headers: request.headers, body },
      log,
    );
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    log.status = answer.status;
    const text =
      answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      'content-type': answer.contentType ?? 'application/json; charset=utf-8',
      ...answer.headers,
    });
    response.end(text);
  });
  const { origin, close } = await listenOnLoopback(server);
  return { url: origin, requests, close };
}

/** Mock-only request headers (Prism's) that must never reach a live service. */
export const MOCK_ONLY_HEADERS = ['prefer'];
