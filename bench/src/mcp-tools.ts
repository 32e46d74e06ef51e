/**
 * Section `mcp-tools`: what `tools/list` of `@agent-apis/mcp-server` costs a model's context, in bytes of the JSON
 * result and in estimated tokens (bytes / 4, the usual rule of thumb for English and JSON; no tokenizer is
 * installed), for the default server (directory and trust one tool per operation, the store through search and
 * call) beside the same server with one tool per store operation (`storeToolsets: 'all'`).
 */
import { listTools, ToolCalls, type ToolCallsOptions } from '@agent-apis/mcp-server';

export interface McpToolsRow {
  server: string;
  tools: number;
  bytes: number;
  estimatedTokens: number;
  ratioToDefault: number;
}

const VARIANTS: [string, ToolCallsOptions][] = [
  ['default (store: search + call)', {}],
  ['store products tool set', { storeToolsets: ['products'] }],
  ['one tool per store operation', { storeToolsets: 'all' }],
];

export function measureMcpTools(): McpToolsRow[] {
  const rows = VARIANTS.map(([server, options]) => {
    const tools = listTools(new ToolCalls(options));
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    return { server, tools: tools.length, bytes, estimatedTokens: Math.round(bytes / 4) };
  });
  const base = rows[0]?.bytes ?? 1;
  return rows.map((row) => ({ ...row, ratioToDefault: Math.round((row.bytes / base) * 100) / 100 }));
}
