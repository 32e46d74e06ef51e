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
 *   `structuredContent` is `{ tool, arguments }`, echoing what arrived, and the text content is the same JSON. The
 *   server keeps the records its `create_*` tools make (`{ id, ...arguments }`, ids from 4201): a creating,
 *   updating or reading tool also answers `record`, a listing tool (`list_*`) `records: [{ id: 4101 }, ...the
 *   kept ones]`, and `delete_*` forgets the record, so a live-mode run has real answers to take record ids from
 *   and can read back what it created. A tool that declares an `outputSchema` gets a sample value of that schema
 *   instead. `answer` may rewrite any answer (a hostile server).
 * - Requests without the expected credential headers (store: X-LOGIN-KEY, X-AUTH-TOKEN) are answered HTTP 401.
 *
 * Broken on purpose, for the suite's own tests (`broken`): `without` drops tools from tools/list and calls (a tool
 * gone), `failing` answers every call of the named tools with a tool error, `lenient` skips the input check (a
 * server accepting out-of-range and undeclared arguments). A wrong token is `credentials` other than the client's.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { McpTool } from '@agent-apis/specs/mcp-tools';
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { buildToolServer } from '@agent-apis/test-utils/mcp-server';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sampleValue } from './sample-value.ts';

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
  /** Rewrites the structured answer of a valid call (a server answering something else than expected). */
  answer?: (tool: string, structured: Record<string, unknown>) => Record<string, unknown>;
  /** Ways this server breaks its contract (see the module comment). */
  broken?: { without?: readonly string[]; failing?: readonly string[]; lenient?: boolean };
}

type Kept = Record<string, unknown>;

/** The record kind a tool acts on: `product` for create_product, get_product and list_products. */
function kindOf(tool: string): string {
  return tool
    .replace(/^(create|update|delete|get|list)_/, '')
    .replace(/ies$/, 'y')
    .replace(/s$/, '');
}

/** What a valid call answers, keeping records in `kept` (see the module comment). */
function placeholderResult(
  tool: McpTool,
  args: Record<string, unknown>,
  kept: Map<string, Map<string, Kept>>,
  nextId: () => number,
): Record<string, unknown> {
  if (tool.outputSchema) return sampleValue({} as OpenApiDocument, tool.outputSchema, 'all') as Record<string, unknown>;
  const kind = kindOf(tool.name);
  const records = kept.get(kind) ?? new Map<string, Kept>();
  kept.set(kind, records);
  const verb = tool.name.split('_')[0];
  const echo = { tool: tool.name, arguments: args };
  if (verb === 'list') return { ...echo, records: [{ id: 4101 }, ...records.values()] };
  if (verb === 'create') {
    const record = { id: nextId(), ...args };
    records.set(String(record.id), record);
    return { ...echo, record };
  }
  const record = records.get(String(args.id));
  if (record && verb === 'update') Object.assign(record, args, { id: record.id });
  if (record && verb === 'delete') records.delete(String(args.id));
  return record && verb !== 'delete' ? { ...echo, record: { ...record } } : echo;
}

function hasCredentials(request: IncomingMessage, credentials: Readonly<Record<string, string>>): boolean {
  return Object.entries(credentials).every(([name, value]) => request.headers[name.toLowerCase()] === value);
}

export async function startToolServer(options: LocalToolServerOptions): Promise<LocalToolServer> {
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats.default(ajv);
  const broken = options.broken ?? {};
  const tools = options.tools.filter((tool) => !broken.without?.includes(tool.name));
  const validators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const calls: LocalToolServer['calls'] = [];
  const kept = new Map<string, Map<string, Kept>>();
  let lastId = 4200;

  const buildServer = () =>
    buildToolServer({
      name: 'agent-apis-local-tool-server',
      tools: tools as Tool[],
      handle: (name, args) => {
        const tool = byName.get(name);
        const validate = validators.get(name);
        if (!tool || !validate) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
        if (broken.failing?.includes(name)) {
          return { content: [{ type: 'text', text: `${name} is unavailable right now` }], isError: true };
        }
        if (!broken.lenient && !validate(args)) {
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
        const placeholder = placeholderResult(tool, args, kept, () => ++lastId);
        const structured = options.answer ? options.answer(name, placeholder) : placeholder;
        return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
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
  const { origin, close } = await listenOnLoopback(http, options.port);
  return {
    url: `${origin}/mcp`,
    requests,
    calls,
    close,
  };
}
