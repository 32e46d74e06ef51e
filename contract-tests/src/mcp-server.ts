/**
 * A local agent tool server built from a pinned tools/list result, for the contract suite's mock mode: the official
 * SDK's low-level `Server` as `@agent-apis/test-utils/mcp-server` builds it, behind the SDK's streamable HTTP transport, stateless (a fresh server and transport for every
 * POST; GET and DELETE are answered 405, as a stateless server does), listening on a free loopback port.
 *
 * - `tools/list` answers the pinned tools unchanged.
 * - `tools/call` checks the arguments against the tool's `inputSchema` with Ajv, independently of the client's own
 *   checker, and answers a violation as a tool error (`isError: true`, Ajv's words). An unknown tool is a
 *   JSON-RPC error (-32602).
 * - A valid call is answered with a documented placeholder, since the pinned tools declare no output schema:
 *   `structuredContent` is `{ tool, arguments }`, echoing what arrived, and the text content is the same JSON. A
 *   listing tool (`list_*`) also answers `records: [{ id }]` and a creating one (`create_*`) `record: { id }`, so
 *   a live-mode run has real answers to take record ids from. A tool that declares an `outputSchema` gets a
 *   sample value of that schema instead.
 * - Requests without the expected credential headers (store: X-LOGIN-KEY, X-AUTH-TOKEN) are answered HTTP 401.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { McpTool } from '@agent-apis/specs/mcp-tools';
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { buildToolServer } from '@agent-apis/test-utils/mcp-server';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sampleValue } from './values.ts';

export interface LocalToolServer {
  url: string;
  /** Every HTTP request received, by method. */
  requests: { method: string }[];
  /** Every valid tool call, in order. */
  calls: { tool: string; arguments: Record<string, unknown> }[];
  close(): Promise<void>;
}

export interface LocalToolServerOptions {
  tools: readonly McpTool[];
  /** Header name → value every request must carry. */
  credentials?: Readonly<Record<string, string>>;
  /** The loopback port to listen on (default: a free one; fixed ports are for `pnpm mock`, never for tests). */
  port?: number;
}

/** What a valid call answers (see the module comment). */
export function placeholderResult(tool: McpTool, args: Record<string, unknown>): CallToolResult {
  const records = tool.name.startsWith('list_') ? { records: [{ id: 4101 }] } : {};
  const created = tool.name.startsWith('create_') ? { record: { id: 4201 } } : {};
  const structured = tool.outputSchema
    ? (sampleValue({} as OpenApiDocument, tool.outputSchema, 'all') as Record<string, unknown>)
    : { tool: tool.name, arguments: args, ...records, ...created };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function hasCredentials(request: IncomingMessage, credentials: Readonly<Record<string, string>>): boolean {
  return Object.entries(credentials).every(([name, value]) => request.headers[name.toLowerCase()] === value);
}

export async function startToolServer(options: LocalToolServerOptions): Promise<LocalToolServer> {
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats.default(ajv);
  const validators = new Map(options.tools.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const calls: LocalToolServer['calls'] = [];

  const buildServer = () =>
    buildToolServer({
      name: 'agent-apis-local-tool-server',
      tools: options.tools as Tool[],
      handle: (name, args) => {
        const tool = byName.get(name);
        const validate = validators.get(name);
        if (!tool || !validate) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
        if (!validate(args)) {
          const [problem] = validate.errors ?? [];
          const where = `arguments${problem?.instancePath.replaceAll('/', '.') ?? ''}`;
          return {
            content: [
              { type: 'text', text: `Invalid arguments for ${name}: ${where} ${problem?.message ?? 'invalid'}` },
            ],
            isError: true,
          };
        }
        calls.push({ tool: name, arguments: args });
        return placeholderResult(tool, args);
      },
    });

  const requests: { method: string }[] = [];
  const http = createServer(async (request, response) => {
    requests.push({ method: request.method ?? '' });
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    if (!hasCredentials(request, options.credentials ?? {})) {
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"missing or wrong API token headers"}');
      return;
    }
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    calls,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
