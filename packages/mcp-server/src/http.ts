/**
 * The streamable HTTP transport: one MCP session per client (`Mcp-Session-Id`), each with its own tool calls and
 * pager, on loopback unless another host is asked for. Checked before anything else, in order: the `Host` must name
 * the listening address (DNS rebinding), an `Origin`, when sent, must be a loopback one or allowed, and with a
 * token configured (required off loopback) `Authorization: Bearer <token>`, compared in constant time. Requests
 * are bounded in size and time (headers, then the whole request). Sessions are bounded in number, overall and per
 * peer: a new one may close an idle session (idle longest first), never an active one; else it is refused (503,
 * or 429 for a peer over its cap). Credentials may come per session, in the headers of the `initialize` request
 * (`X-Store-Login` + `X-Store-Auth-Token`, or `X-Store-Access-Token`; `X-Entropy0-Api-Key`); without them the
 * server's own configuration (environment) is used. Headers and the token are never logged.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentApiError } from '@agent-apis/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_HELD_BYTES_TOTAL, HeldBudget } from './answer.js';
import { type ClientsOptions, ServiceClients } from './clients.js';
import { createAgentApisServer } from './server.js';
import { ToolCalls, type ToolCallsOptions } from './tool-calls.js';

/** Environment variable holding the bearer token `--http` requires (required when the host is not loopback). */
export const TOKEN_ENV_VAR = 'AGENT_APIS_MCP_TOKEN';

export interface HttpServerOptions extends ToolCallsOptions {
  /** Address to listen on (default `127.0.0.1`: loopback only; any other needs a `token`). */
  host?: string | undefined;
  /** Port (default 0: any free port; the bin defaults to 3333). */
  port?: number | undefined;
  /** Sessions held at once (default 100). */
  maxSessions?: number | undefined;
  /** Sessions held at once for one peer address (default 50: on loopback every local client is one peer). */
  maxSessionsPerPeer?: number | undefined;
  /**
   * A session with no request in flight (an open GET stream does not count) for this long is idle: it may be closed to admit a new one (default
   * 60 000 ms). Sessions idle for 30 minutes, or this if longer, are closed anyway.
   */
  sessionIdleMs?: number | undefined;
  /** Time to receive a whole request, headers and body (default 30 000 ms; headers alone: 10 s at most). */
  requestTimeoutMs?: number | undefined;
  /** Largest request body (default 1 MiB). */
  maxBodyBytes?: number | undefined;
  /** Browser origins allowed besides loopback ones (`https://app.example`); a request without `Origin` passes. */
  allowedOrigins?: readonly string[] | undefined;
  /** The bearer token every request must carry (`Authorization: Bearer …`); required when `host` is not loopback. */
  token?: string | undefined;
  /** Bytes held for `answer_more` by all sessions together (default 32 MiB); per session: `maxHeldBytes`. */
  maxHeldBytesTotal?: number | undefined;
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

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const MAX_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_SESSION_IDLE_MS = 60_000;
const SESSION_CLOSE_IDLE_MS = 30 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  calls: ToolCalls;
  peer: string;
  /** Requests in flight (not counting a GET stream held open). */
  active: number;
  lastActive: number;
}

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

/** Whether `host` is a loopback address or name. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Whether a browser `Origin` may call: a loopback origin, or one of `allowed`. */
function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname);
  } catch {
    return false;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Bearer <token>`, compared in constant time (both sides hashed to one length). */
function authorized(request: IncomingMessage, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

async function readJson(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw Object.assign(new Error(`request body over ${maxBytes} bytes`), { status: 413 });
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
 * Starts the HTTP transport; resolves once listening. Sessions without credentials of their own use `clients`
 * (default: built from `options`); the others get variants of them. Every session has its own tool calls, so its
 * own held answers, within the server's budget. Throws an `AgentApiError` naming {@link TOKEN_ENV_VAR} when the
 * host is not loopback and no token is set.
 */
export async function startHttpServer(
  options: HttpServerOptions = {},
  clients: ServiceClients = new ServiceClients(options),
): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token || undefined;
  if (!isLoopback(host) && !token) {
    throw new AgentApiError(
      `--http on ${host} (not loopback) needs a bearer token: set ${TOKEN_ENV_VAR} to a long random secret; clients send it as Authorization: Bearer <token>`,
    );
  }
  const heldBudget = new HeldBudget(options.maxHeldBytesTotal ?? DEFAULT_MAX_HELD_BYTES_TOTAL);
  const sessionOptions: ToolCallsOptions = { ...options, heldBudget };
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? 100;
  const maxPerPeer = options.maxSessionsPerPeer ?? 50;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const allowedOrigins = options.allowedOrigins ?? [];
  let allowedHosts: string[] = [];

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    session.calls.release();
    void session.transport.close();
  };

  /** The idle session of `peer` (any peer when undefined) idle longest, if any. */
  const idlest = (peer?: string): string | undefined => {
    const now = Date.now();
    let found: [string, number] | undefined;
    for (const [id, session] of sessions) {
      if (session.active > 0 || now - session.lastActive < idleMs) continue;
      if (peer !== undefined && session.peer !== peer) continue;
      if (!found || session.lastActive < found[1]) found = [id, session.lastActive];
    }
    return found?.[0];
  };

  /** Room for a new session of `peer`, closing idle ones; else the refusal. */
  const admit = (peer: string) => {
    const ofPeer = () => [...sessions.values()].filter((session) => session.peer === peer).length;
    while (ofPeer() >= maxPerPeer) {
      const idle = idlest(peer);
      if (!idle) return jsonRpcError(429, `Too many sessions from this address (${maxPerPeer}): close one first`);
      closeSession(idle);
    }
    while (sessions.size >= maxSessions) {
      const idle = idlest();
      if (!idle) return jsonRpcError(503, 'The server holds as many active sessions as it may: try again later');
      closeSession(idle);
    }
    return undefined;
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions)
        if (session.active === 0 && now - session.lastActive > Math.max(idleMs, SESSION_CLOSE_IDLE_MS))
          closeSession(id);
    },
    Math.min(60_000, Math.max(idleMs, 1000)),
  );
  sweep.unref();

  /** Counts `response` as in flight for `session` until it ends. */
  const track = (session: Session, response: ServerResponse) => {
    session.active += 1;
    session.lastActive = Date.now();
    response.once('close', () => {
      session.active -= 1;
      session.lastActive = Date.now();
    });
  };

  const http: Server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(MAX_HEADERS_TIMEOUT_MS, requestTimeout),
      // How often Node looks for requests over their time (its default, 30 s, would let a short limit run long).
      connectionsCheckingInterval: Math.max(250, Math.min(5000, Math.floor(requestTimeout / 4))),
    },
    (request, response) => {
      const reply = ({ status, body }: { status: number; body: string }, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
      };
      void (async () => {
        const path = new URL(request.url ?? '/', 'http://localhost').pathname;
        if (path !== '/mcp') return reply(jsonRpcError(404, 'Not found: the MCP endpoint is /mcp'));
        if (!allowedHosts.includes((header(request, 'host') ?? '').toLowerCase()))
          return reply(jsonRpcError(403, 'Forbidden: the Host header does not name this server'));
        const origin = header(request, 'origin');
        if (origin !== undefined && !originAllowed(origin, allowedOrigins))
          return reply(
            jsonRpcError(403, 'Forbidden: this Origin is not allowed (loopback origins and --allow-origin)'),
          );
        if (token && !authorized(request, token))
          return reply(jsonRpcError(401, 'Unauthorized: send Authorization: Bearer <token>'), {
            'www-authenticate': 'Bearer',
          });
        const sessionId = header(request, 'mcp-session-id');
        const existing = sessionId ? sessions.get(sessionId) : undefined;
        // A request is activity; an open GET stream (where the server may speak first) is not.
        if (existing && request.method !== 'GET') track(existing, response);
        if (request.method !== 'POST') {
          if (!existing) return reply(jsonRpcError(sessionId ? 404 : 400, 'Unknown or missing Mcp-Session-Id'));
          return existing.transport.handleRequest(request, response);
        }
        const length = Number(header(request, 'content-length') ?? 0);
        if (length > maxBodyBytes) {
          response.shouldKeepAlive = false;
          return reply(jsonRpcError(413, `Request body over ${maxBodyBytes} bytes`), { connection: 'close' });
        }
        const body = await readJson(request, maxBodyBytes);
        if (existing) return existing.transport.handleRequest(request, response, body);
        if (sessionId) return reply(jsonRpcError(404, 'Session not found: initialize again'));
        if (!isInitializeRequest(body))
          return reply(jsonRpcError(400, 'No session: the first request must be initialize'));
        const peer = request.socket.remoteAddress ?? 'unknown';
        const refused = admit(peer);
        if (refused) return reply(refused, refused.status === 503 ? { 'retry-after': '5' } : {});
        const credentials = sessionCredentials(request);
        const id = randomUUID();
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => id,
          enableDnsRebindingProtection: true,
          allowedHosts,
        });
        const calls = new ToolCalls(sessionOptions, credentials ? clients.withCredentials(credentials) : clients);
        // Held from admission, so concurrent initialize requests cannot overshoot the caps.
        const session: Session = { transport, calls, peer, active: 0, lastActive: Date.now() };
        sessions.set(id, session);
        track(session, response);
        response.once('close', () => {
          if (transport.sessionId === undefined) closeSession(id);
        });
        transport.onclose = () => {
          if (sessions.get(id)?.transport === transport) {
            sessions.delete(id);
            calls.release();
          }
        };
        await createAgentApisServer(calls).connect(transport);
        await transport.handleRequest(request, response, body);
      })().catch((error: unknown) => {
        const status = (error as { status?: number }).status ?? 500;
        // The rest of a body over the cap is not read: the connection closes with the answer.
        if (status === 413) response.shouldKeepAlive = false;
        if (!response.headersSent)
          reply(
            jsonRpcError(status, status === 500 ? 'Internal error' : (error as Error).message),
            status === 413 ? { connection: 'close' } : {},
          );
        else response.end();
      });
    },
  );

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  allowedHosts = [`${hostPart}:${port}`, ...(isLoopback(host) ? [`localhost:${port}`] : [])].map((name) =>
    name.toLowerCase(),
  );
  return {
    url: `http://${hostPart}:${port}/mcp`,
    close: async () => {
      clearInterval(sweep);
      for (const id of [...sessions.keys()]) closeSession(id);
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
