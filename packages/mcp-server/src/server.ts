/**
 * The MCP server: `tools/list` from the catalog (JSON Schemas as generated, no references, under the schema profile),
 * instructions saying once what the tools share, `tools/call` through
 * {@link ToolCalls}. One {@link ToolCalls} may back many servers (one per HTTP session), sharing clients and budget.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { serverInstructions } from './catalog.js';
import { ToolCalls, type ToolCallsOptions } from './tool-calls.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

export interface AgentApisServerOptions extends ToolCallsOptions {}

/** The `tools/list` entries of `calls`. */
export function listTools(calls: ToolCalls): Tool[] {
  return calls.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    annotations: tool.annotations,
  }));
}

/** A server (not connected) answering with `calls`, or with new ones built from `options`. */
export function createAgentApisServer(options: AgentApisServerOptions | ToolCalls = {}): Server {
  const calls = options instanceof ToolCalls ? options : new ToolCalls(options);
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: serverInstructions(calls.tools) },
  );
  const tools = listTools(calls);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    // An unknown tool is a protocol error (the spec's -32602), not a tool's failure.
    if (!calls.has(request.params.name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${request.params.name}: list the tools to see what this server offers`,
      );
    }
    return calls.call(request.params.name, request.params.arguments, extra.signal);
  });
  return server;
}
