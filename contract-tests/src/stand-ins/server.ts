/**
 * What the loopback stand-ins of the live services share: an HTTP server on 127.0.0.1 with an optional answer
 * latency, a log of every request it received, routing by the final spec's path templates, and the server-side
 * checks of query parameters a real service makes (type, enum, bounds → 400).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listOperations, type OpenApiDocument, type Parameter, resolveRef } from '@agent-apis/specs/src/openapi.ts';
import type { ServiceName } from '@agent-apis/specs/src/services.ts';
import { SPECS_DIST } from '../spec.ts';

export interface LoggedRequest {
  method: string;
  path: string;
  operation?: string;
  /** Header names as received (lower case). */
  headers: string[];
  status: number;
}

export interface Route {
  operation: Record<string, unknown> & { operationId: string };
  template: string;
  params: Record<string, string>;
  parameters: Parameter[];
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

export function loadDocument(service: ServiceName): OpenApiDocument {
  return JSON.parse(readFileSync(`${SPECS_DIST}/${service}.openapi.json`, 'utf8')) as OpenApiDocument;
}

/** Matches a request against the document's path templates (`{param}` stands for one segment part). */
export function router(document: OpenApiDocument, basePath = ''): (method: string, path: string) => Route | undefined {
  const routes = listOperations(document).map((ref) => {
    const names: string[] = [];
    const pattern = ref.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{(.+)\}$/.exec(part)?.[1];
        if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '([^/]+)';
      })
      .join('');
    const parameters = [...(ref.pathItem.parameters ?? []), ...(ref.operation.parameters ?? [])].map((p) => {
      const parameter = resolveRef<Parameter>(document, p);
      return parameter.schema
        ? { ...parameter, schema: resolveRef<Parameter['schema']>(document, parameter.schema as never) }
        : parameter;
    });
    return { method: ref.method.toUpperCase(), regex: new RegExp(`^${basePath}${pattern}$`), names, ref, parameters };
  });
  return (method, path) => {
    // Literal segments win over parameters (`/products/count.json` before `/products/{id}.json`).
    const matches = routes
      .filter((route) => route.method === method && route.regex.test(path))
      .sort((a, b) => a.names.length - b.names.length);
    const route = matches[0];
    if (!route) return undefined;
    const values = route.regex.exec(path)?.slice(1) ?? [];
    return {
      operation: route.ref.operation as Route['operation'],
      template: route.ref.path,
      params: Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')])),
      parameters: route.parameters,
    };
  };
}

/** The first query parameter that breaks its schema, as a message, or undefined. */
export function queryProblem(route: Route, query: URLSearchParams): string | undefined {
  for (const parameter of route.parameters.filter((p) => p.in === 'query')) {
    const value = query.get(parameter.name);
    if (value === null) {
      if (parameter.required) return `${parameter.name} is required`;
      continue;
    }
    const schema = (parameter.schema ?? {}) as { type?: string; enum?: unknown[]; minimum?: number; maximum?: number };
    if (Array.isArray(schema.enum) && !schema.enum.map(String).includes(value)) return `${parameter.name} not allowed`;
    if (schema.type === 'integer' || schema.type === 'number') {
      const number = Number(value);
      if (value.trim() === '' || Number.isNaN(number) || (schema.type === 'integer' && !Number.isInteger(number))) {
        return `${parameter.name} must be a number`;
      }
      if (typeof schema.minimum === 'number' && number < schema.minimum) return `${parameter.name} too small`;
      if (typeof schema.maximum === 'number' && number > schema.maximum) return `${parameter.name} too large`;
    }
  }
  return undefined;
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
export function serve(
  handle: (request: HandlerRequest, log: LoggedRequest) => Answer | Promise<Answer>,
  latencyMs = 0,
): Promise<StandIn> {
  const requests: LoggedRequest[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const log: LoggedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
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
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}

/** Mock-only request headers (Prism's) that must never reach a live service. */
export const MOCK_ONLY_HEADERS = ['prefer'];
