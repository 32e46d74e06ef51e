/**
 * An in-process MCP tool server for unit tests: the official SDK's `Server`, stateless, reached through an injected
 * `fetch` (no sockets), recording every HTTP request it receives. The contract suite's loopback server
 * (`@agent-apis/test-servers/tool-server`) is the same SDK server behind a real socket.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** Canary credentials: they must never show up in an error. */
export const CANARY = { loginKey: 'canary-login-key-5e1f', authToken: 'canary-auth-token-8c2d' };

export type ToolHandler = (
  name: string,
  args: Record<string, unknown>,
  headers: Headers,
) => CallToolResult | Promise<CallToolResult>;

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
  /** The JSON-RPC message (POST only). */
  message?: { method?: string; params?: { name?: string; arguments?: unknown } };
}

/** What a tool server answers: its tools (paged as asked) and its tool calls. */
export interface ToolServerOptions {
  tools: readonly Tool[];
  /** Answers `tools/call`; throw an `McpError` to answer with a JSON-RPC error. */
  handle: ToolHandler;
  /** Fields every `tools/list` page carries beside its tools (servers may send more than the protocol names). */
  listFields?: Record<string, unknown>;
  /** Tools per `tools/list` page (default: all on one page). */
  pageSize?: number;
  /** A hostile pager: answers every `tools/list` page with no tools and the cursor this returns. */
  nextCursor?: (cursor: string | undefined) => string;
  /** The name the server introduces itself with (default `fake-tool-server`). */
  name?: string;
}

/**
 * The SDK server answering `tools/list` and `tools/call` as `options` say; one per request when stateless. Both the
 * in-process fake below and the contract suite's loopback server are this server.
 */
export function buildToolServer(options: ToolServerOptions): Server {
  const pageSize = options.pageSize ?? options.tools.length;
  const server = new Server(
    { name: options.name ?? 'fake-tool-server', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    if (options.nextCursor) return { tools: [], nextCursor: options.nextCursor(request.params?.cursor) };
    const start = Number(request.params?.cursor ?? 0);
    const end = start + pageSize;
    return {
      tools: options.tools.slice(start, end),
      ...options.listFields,
      ...(end < options.tools.length ? { nextCursor: String(end) } : {}),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    options.handle(
      request.params.name,
      request.params.arguments ?? {},
      new Headers(extra.requestInfo?.headers as Record<string, string>),
    ),
  );
  return server;
}

export interface FakeToolServerOptions extends ToolServerOptions {
  /** `json` answers with application/json, `sse` with an event stream (default). */
  format?: 'json' | 'sse';
  /** Answers a request at the HTTP level instead of the server, when it returns a response. */
  intercept?: (request: Request) => Response | undefined;
}

export function fakeToolServer(options: FakeToolServerOptions) {
  const requests: RecordedRequest[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.method === 'POST' ? await request.clone().text() : undefined;
    requests.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      ...(body ? { message: JSON.parse(body) } : {}),
    });
    const intercepted = options.intercept?.(request);
    if (intercepted) return intercepted;
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: options.format === 'json',
    });
    await buildToolServer(options).connect(transport);
    return transport.handleRequest(request);
  }) as typeof globalThis.fetch;

  /** The JSON-RPC methods received, in order (`tools/call:<name>` for tool calls). */
  const methods = () =>
    requests
      .filter((r) => r.message?.method)
      .map((r) =>
        r.message?.method === 'tools/call' ? `tools/call:${r.message.params?.name}` : String(r.message?.method),
      );

  return { fetch, requests, methods };
}

/** A text result. */
export function textResult(text: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}
