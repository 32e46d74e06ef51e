/**
 * The streamable HTTP transport: one MCP session per client (`Mcp-Session-Id`), on loopback unless another host is
 * asked for, with DNS-rebinding protection (the `Host` must name the listening address). Credentials may come per
 * session, in the headers of the `initialize` request (`X-Store-Login` + `X-Store-Auth-Token`, or
 * `X-Store-Access-Token`; `X-Entropy0-Api-Key`); without them the server's own configuration (environment) is used.
 * Headers are never logged.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type ClientsOptions, ServiceClients } from './clients.js';
import { createAgentApisServer } from './server.js';
import { ToolCalls, type ToolCallsOptions } from './tool-calls.js';

export interface HttpServerOptions extends ToolCallsOptions {
  /** Address to listen on (default `127.0.0.1`: loopback only). */
  host?: string | undefined;
  /** Port (default 0: any free port; the bin defaults to 3333). */
  port?: number | undefined;
  /** Sessions held at once; the oldest is closed beyond (default 100). */
  maxSessions?: number | undefined;
}

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3333/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** The credential headers a session may bring. */
export const CREDENTIAL_HEADERS = {
  storeLogin: 'x-store-login',
  storeAuthToken: 'x-store-auth-token',
  storeAccessToken: 'x-store-access-token',
  trustApiKey: 'x-entropy0-api-key',
} as const;

const MAX_BODY_BYTES = 4 * 1024 * 1024;

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The credentials a session brings in the headers of its initialize request, if any. */
function sessionCredentials(request: IncomingMessage): Pick<ClientsOptions, 'store' | 'trust'> | undefined {
  const login = header(request, CREDENTIAL_HEADERS.storeLogin);
  const authToken = header(request, CREDENTIAL_HEADERS.storeAuthToken);
  const accessToken = header(request, CREDENTIAL_HEADERS.storeAccessToken);
  const apiKey = header(request, CREDENTIAL_HEADERS.trustApiKey);
  if (!login && !authToken && !accessToken && !apiKey) return undefined;
  return {
    store: accessToken ? { accessToken } : login || authToken ? { login, authToken } : {},
    trust: apiKey ? { apiKey } : {},
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    throw Object.assign(new Error('request body is not JSON'), { status: 400 });
  }
}

function jsonRpcError(status: number, message: string) {
  return { status, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }) };
}

/**
 * Starts the HTTP transport; resolves once listening. Sessions without credentials of their own share `clients`
 * (default: built from `options`); the others get variants of them.
 */
export async function startHttpServer(
  options: HttpServerOptions = {},
  clients: ServiceClients = new ServiceClients(options),
): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const shared = new ToolCalls(options, clients);
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const maxSessions = options.maxSessions ?? 100;
  let allowedHosts: string[] = [];

  const http: Server = createServer((request, response) => {
    const reply = ({ status, body }: { status: number; body: string }) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    };
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path !== '/mcp') return reply(jsonRpcError(404, 'Not found: the MCP endpoint is /mcp'));
      const sessionId = header(request, 'mcp-session-id');
      const existing = sessionId ? sessions.get(sessionId) : undefined;
      if (request.method !== 'POST') {
        if (!existing) return reply(jsonRpcError(sessionId ? 404 : 400, 'Unknown or missing Mcp-Session-Id'));
        return existing.handleRequest(request, response);
      }
      const body = await readJson(request);
      if (existing) return existing.handleRequest(request, response, body);
      if (sessionId) return reply(jsonRpcError(404, 'Session not found: initialize again'));
      if (!isInitializeRequest(body))
        return reply(jsonRpcError(400, 'No session: the first request must be initialize'));
      const credentials = sessionCredentials(request);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (id) => {
          while (sessions.size >= maxSessions) {
            const [oldest, old] = sessions.entries().next().value as [string, StreamableHTTPServerTransport];
            sessions.delete(oldest);
            void old.close();
          }
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      const calls = credentials ? new ToolCalls(options, clients.withCredentials(credentials)) : shared;
      await createAgentApisServer(calls).connect(transport);
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      const status = (error as { status?: number }).status ?? 500;
      if (!response.headersSent)
        reply(jsonRpcError(status, status === 500 ? 'Internal error' : (error as Error).message));
      else response.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  allowedHosts = [`${hostPart}:${port}`, ...(host === '127.0.0.1' || host === '::1' ? [`localhost:${port}`] : [])];
  return {
    url: `http://${hostPart}:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
