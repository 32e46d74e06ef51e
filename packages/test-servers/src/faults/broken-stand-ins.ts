/**
 * Broken (and one more conforming) behaviours of a live API, as a layer in front of a conforming stand-in: a
 * loopback proxy that forwards each request to the stand-in and changes what comes back, one mode per way a
 * server can break. The stand-ins stay conforming; a test picks the mode with `withFault`. Each mode is what an
 * operator may meet, not a shape the suite is tuned to:
 *
 * | mode            | the API …                                                                         |
 * | --------------- | --------------------------------------------------------------------------------- |
 * | `rate-limited`  | answers 429 with `Retry-After: 3600` to everything                                |
 * | `unauthorized`  | answers 401 to every request, credentials included                                |
 * | `challenge`     | answers a 403 HTML challenge page to everything                                   |
 * | `removed`       | has removed `GET /products.json`, `GET /api/mcp`, `POST /v1/decide` (404)         |
 * | `same-record`   | answers every lookup of a kind with the first record it was asked for             |
 * | `dropped-field` | drops a required field from every entry of page 3 of a list                       |
 * | `empty-lists`   | answers every list with `[]` (and every count with 0)                             |
 * | `quota-spent`   | has spent the month's quota: 429 `quota_exceeded` to every scan, no Retry-After   |
 * | `hung`          | never answers `POST /v1/decide` (the connection stays open)                       |
 * | `cursor-end`    | conforming: answers the documented 404 to `/…/after/{id}` when nothing is after it |
 * | `no-404`        | answers a GET naming a record that does not exist 200 `{}`, not its documented 404 |
 * | `after-one`     | answers `/…/after/{id}` with the first record alone, not the documented list      |
 * | `bounds-500`    | answers 500 to a `page`/`offset` below its minimum or a body array over `maxItems` |
 */

import { type OpenApiDocument, resolveRef } from '@agent-apis/specs/openapi';
import type { ServiceName } from '@agent-apis/specs/services';
import {
  type Answer,
  type HandlerRequest,
  loadDocument,
  type Route,
  router,
  type StandIn,
  serve,
} from '../stand-ins/server.ts';
import type { StoreRecord } from '../stand-ins/store-writes.ts';

export const FAULT_MODES = [
  'rate-limited',
  'unauthorized',
  'challenge',
  'removed',
  'same-record',
  'dropped-field',
  'empty-lists',
  'quota-spent',
  'hung',
  'cursor-end',
  'no-404',
  'after-one',
  'bounds-500',
] as const;

export type FaultMode = (typeof FAULT_MODES)[number];

/** Paths (after the API's base) a `removed` API no longer serves. */
const REMOVED = ['GET /products.json', 'GET /api/mcp', 'POST /v1/decide'];

const CHALLENGE_PAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><h1>Checking your browser</h1>' +
  '<p>Enable JavaScript and cookies to continue.</p></body></html>';

/**
 * Records a store needs for a mode to show: `dropped-field` needs a list with a page 3 (the list pages by 50), so
 * 130 more products.
 */
export function faultRecords(mode: FaultMode | undefined): Record<string, StoreRecord[]> {
  if (mode !== 'dropped-field') return {};
  return {
    '/products': Array.from({ length: 130 }, (_, i) => ({
      id: 30_001 + i,
      name: `Stoneware cup ${i + 1}`,
      price: 6 + (i % 5),
      status: 'available',
    })) as StoreRecord[],
  };
}

type Schema = Record<string, unknown>;

/** The fields each entry of a list answer must carry, by the success schema of the route (wrapper included). */
function requiredEntryField(document: OpenApiDocument, route: Route): string[] | undefined {
  if (!route.row.successSchema) return undefined;
  let schema = resolveRef<Schema>(document, route.row.successSchema as never);
  if (schema?.type !== 'array') {
    const list = Object.values((schema?.properties ?? {}) as Record<string, Schema>)
      .map((p) => resolveRef<Schema>(document, p as never))
      .find((p) => p?.type === 'array');
    if (!list) return undefined;
    schema = list;
  }
  const item = resolveRef<Schema>(document, schema.items as never) ?? {};
  const required = (item.required ?? []) as string[];
  if (required.length > 0) return [required[0] as string];
  const properties = Object.entries((item.properties ?? {}) as Record<string, Schema>);
  if (properties.length !== 1) return undefined;
  const [wrapper, inner] = properties[0] as [string, Schema];
  const wrapped = resolveRef<Schema>(document, inner as never);
  const innerRequired = (wrapped?.required ?? []) as string[];
  return innerRequired.length > 0 ? [wrapper, innerRequired[0] as string] : undefined;
}

function dropField(entry: unknown, path: string[]): unknown {
  if (!entry || typeof entry !== 'object') return entry;
  const copy = structuredClone(entry) as Record<string, unknown>;
  let node: Record<string, unknown> | undefined = copy;
  for (const key of path.slice(0, -1)) node = node?.[key] as Record<string, unknown> | undefined;
  if (node) delete node[path.at(-1) as string];
  return copy;
}

/** The list inside an answer (an array, or the one array of an envelope), replaced by `map`. */
function mapList(body: unknown, map: (list: unknown[]) => unknown[]): unknown {
  if (Array.isArray(body)) return map(body);
  if (body && typeof body === 'object') {
    const entries = Object.entries(body as Record<string, unknown>);
    const lists = entries.filter(([, v]) => Array.isArray(v));
    if (lists.length !== 1) return body;
    const [name] = lists[0] as [string, unknown[]];
    return Object.fromEntries(entries.map(([k, v]) => [k, k === name ? map(v as unknown[]) : v]));
  }
  return body;
}

/** Whether `request` breaks a lower bound of `page`/`offset` or an array's `maxItems` of the route's spec. */
function outOfBounds(document: OpenApiDocument, route: Route, request: HandlerRequest): boolean {
  for (const parameter of route.row.parameters) {
    if (parameter.in !== 'query' || !['page', 'offset'].includes(parameter.name)) continue;
    const rule = resolveRef<Schema>(document, parameter.schema as never) ?? {};
    const value = request.query.get(parameter.name);
    if (value !== null && typeof rule.minimum === 'number' && Number(value) < rule.minimum) return true;
  }
  const bodySchema = route.row.body?.schema;
  if (!bodySchema || !request.body || typeof request.body !== 'object') return false;
  const schema = resolveRef<Schema>(document, bodySchema as never) ?? {};
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).some(([name, property]) => {
    const resolved = resolveRef<Schema>(document, property as never) ?? {};
    const value = (request.body as Record<string, unknown>)[name];
    return typeof resolved.maxItems === 'number' && Array.isArray(value) && value.length > resolved.maxItems;
  });
}

export interface FaultyStandIn extends StandIn {
  mode: FaultMode;
  /** The conforming stand-in behind the layer. */
  inner: StandIn;
}

/** Puts the `mode` layer in front of `inner`, a conforming stand-in of `service`. */
export async function withFault(inner: StandIn, service: ServiceName, mode: FaultMode): Promise<FaultyStandIn> {
  const document = loadDocument(service);
  const route = router(service);
  const innerUrl = new URL(inner.url);
  const base = innerUrl.pathname.replace(/\/$/, '');
  const lookups = new Map<string, { status: number; body: unknown }>();
  const hanging: (() => void)[] = [];

  const forward = async (request: HandlerRequest, path = request.path, search = request.query.toString()) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (['host', 'content-length', 'connection'].includes(name) || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const body =
      request.body === undefined || typeof request.body === 'symbol' ? undefined : JSON.stringify(request.body);
    const response = await fetch(`${innerUrl.origin}${path}${search ? `?${search}` : ''}`, {
      method: request.method,
      headers,
      ...(body !== undefined && !['GET', 'HEAD'].includes(request.method) ? { body } : {}),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? 'application/json';
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'date'].includes(name))
        answerHeaders[name] = value;
    });
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body: parsed, headers: answerHeaders, contentType } satisfies Answer;
  };

  const proxy = await serve(async (request, log) => {
    const relative = request.path.startsWith(base) ? request.path.slice(base.length) : request.path;
    const found = route(request.method, relative);
    if (found) log.operation = found.row.id;
    const lookup = found !== undefined && /\{[^}]+\}(\.json)?$/.test(found.template);
    switch (mode) {
      case 'rate-limited':
        return { status: 429, body: { message: 'Too Many Requests' }, headers: { 'Retry-After': '3600' } };
      case 'unauthorized':
        return { status: 401, body: { message: 'Unauthorized' } };
      case 'challenge':
        return { status: 403, body: CHALLENGE_PAGE, contentType: 'text/html; charset=utf-8' };
      case 'removed':
        if (REMOVED.includes(`${request.method} ${relative}`)) return { status: 404, body: { message: 'Not Found' } };
        return forward(request);
      case 'quota-spent':
        if (request.method === 'POST') {
          return {
            status: 429,
            body: {
              error: { code: 'quota_exceeded', message: 'monthly scan quota exceeded', request_id: 'req_fault' },
            },
          };
        }
        return forward(request);
      case 'hung':
        if (request.method === 'POST' && relative === '/v1/decide') {
          await new Promise<void>((resolve) => hanging.push(resolve));
          return { status: 503, body: { message: 'closing' } };
        }
        return forward(request);
      case 'same-record': {
        const answer = await forward(request);
        if (!found || !lookup || request.method !== 'GET' || answer.status !== 200 || Array.isArray(answer.body))
          return answer;
        const first = lookups.get(found.template);
        if (!first) {
          lookups.set(found.template, { status: answer.status, body: answer.body });
          return answer;
        }
        return { ...answer, body: first.body };
      }
      case 'dropped-field': {
        const answer = await forward(request);
        const limit = Number(request.query.get('limit') ?? 0);
        const page3 =
          request.query.get('page') === '3' || (limit > 0 && Number(request.query.get('offset') ?? -1) === 2 * limit);
        if (!found || request.method !== 'GET' || answer.status !== 200 || !page3) return answer;
        const field = requiredEntryField(document, found);
        if (!field) return answer;
        return { ...answer, body: mapList(answer.body, (list) => list.map((entry) => dropField(entry, field))) };
      }
      case 'empty-lists': {
        const answer = await forward(request);
        if (request.method !== 'GET' || answer.status !== 200) return answer;
        let body = mapList(answer.body, () => []);
        if (body && typeof body === 'object' && !Array.isArray(body)) {
          const counted = body as Record<string, unknown>;
          body = Object.fromEntries(
            Object.entries(counted).map(([k, v]) => [
              k,
              ['count', 'total'].includes(k) && typeof v === 'number' ? 0 : v,
            ]),
          );
        }
        return { ...answer, body };
      }
      case 'no-404': {
        const answer = await forward(request);
        if (!found?.template.includes('{') || request.method !== 'GET' || answer.status !== 404) return answer;
        return { ...answer, status: 200, body: {} };
      }
      case 'after-one': {
        const answer = await forward(request);
        const cursor = /\/after\/[^/]+$/.test(found?.template ?? '');
        if (!cursor || request.method !== 'GET' || answer.status !== 200 || !Array.isArray(answer.body)) return answer;
        return { ...answer, body: answer.body[0] ?? {} };
      }
      case 'bounds-500':
        if (found && outOfBounds(document, found, request))
          return { status: 500, body: { message: 'Internal Server Error' } };
        return forward(request);
      case 'cursor-end': {
        const cursor = /^(\/[a-z_]+)\/after\/(\d+)\.json$/.exec(relative);
        if (request.method !== 'GET' || !cursor) return forward(request);
        // Nothing after the id in the collection (read through the stand-in, with the caller's credentials): 404.
        const listed = await forward(request, `${base}${cursor[1]}.json`, 'limit=100');
        const ids = Array.isArray(listed.body)
          ? (listed.body as Record<string, { id?: unknown }>[]).map((e) => Number(Object.values(e)[0]?.id))
          : [];
        if (listed.status === 200 && !ids.some((id) => id > Number(cursor[2]))) {
          return { status: 404, body: { message: 'Not Found' } };
        }
        return forward(request);
      }
    }
  });
  return {
    ...proxy,
    url: `${proxy.url}${base}`,
    mode,
    inner,
    close: async () => {
      for (const release of hanging.splice(0)) release();
      await proxy.close();
    },
  };
}
