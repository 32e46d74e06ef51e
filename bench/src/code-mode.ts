/**
 * Section `code-mode`: five multi-step tasks over the stand-ins of the three APIs (the tasks of
 * `packages/mcp-server/src/code/tasks-test-support.ts`, whose answers the package's tests check), done by an agent
 * with direct tools (one tool call per operation; the store through `store_call_operation`, without `fields`, each
 * store operation looked up once with `store_search_operations`, as the default server lists none) and in code mode
 * (`describe_operations` once, one comma-separated part per operation, then `execute` once). Counted: tool calls, and bytes handed to the agent
 * (the text of each tool result, what enters the model's context). Also the `tools/list` of each server.
 * The goal of issue 39: at most 2 calls per task and at most 1/5 of the bytes in code mode.
 */
import { listTools, ToolCalls, type ToolCallsOptions } from '@agent-apis/mcp-server';
import { startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import { startStoreStandIn } from '@agent-apis/test-servers/stand-ins/store';
import { startTrustStandIn } from '@agent-apis/test-servers/stand-ins/trust';
import { CODE_TASKS } from '../../packages/mcp-server/src/code/tasks-test-support.ts';

export interface CodeModeRow {
  task: string;
  directCalls: number;
  directBytes: number;
  codeCalls: number;
  codeBytes: number;
  /** Code-mode bytes over direct-tool bytes. */
  bytesRatio: number;
}

export interface CodeModeResult {
  rows: CodeModeRow[];
  /** `tools/list` JSON bytes: the default server and the code-mode one. */
  toolsListBytes: { direct: number; code: number };
  maxCodeCalls: number;
  /** Code-mode bytes over direct-tool bytes, all five tasks together. */
  totalBytesRatio: number;
}

/** Calls one tool, counting the call and the bytes of its text; throws on a tool error. */
function meter(calls: ToolCalls) {
  const count = { calls: 0, bytes: 0 };
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await calls.call(name, args);
    const text = result.content.map((block) => block.text).join('');
    count.calls += 1;
    count.bytes += Buffer.byteLength(text);
    if (result.isError) throw new Error(`${name}: ${text}`);
    return (result.structuredContent as { data: unknown }).data;
  };
  return { count, call };
}

export async function measureCodeMode(): Promise<CodeModeResult> {
  const login = 'bench-login';
  const authToken = 'bench-token-0123456789';
  const apiKey = 'sk_ent0_bench_key';
  const [directory, store, trust] = await Promise.all([
    startDirectoryStandIn(),
    startStoreStandIn({ login, authToken }),
    startTrustStandIn({ apiKey }),
  ]);
  try {
    const options: ToolCallsOptions = {
      directory: { baseUrl: directory.url },
      store: { baseUrl: store.url, login, authToken },
      trust: { baseUrl: trust.url, apiKey },
    };
    const rows: CodeModeRow[] = [];
    for (const task of CODE_TASKS) {
      // Fresh servers per task: no answer is cached from the task before.
      const direct = meter(new ToolCalls(options));
      // The default server lists no store operation: the agent looks each one up (its id and input schema) once.
      const looked = new Set<unknown>();
      await task.direct(async (name, args) => {
        if (name === 'store_call_operation' && !looked.has(args.operationId)) {
          looked.add(args.operationId);
          await direct.call('store_search_operations', { query: args.operationId, limit: 1 });
        }
        return direct.call(name, args);
      });
      const code = meter(new ToolCalls({ ...options, codeMode: true }));
      await code.call('describe_operations', { query: task.describe, limit: task.uses.length });
      await code.call('execute', { code: task.code });
      rows.push({
        task: task.name,
        directCalls: direct.count.calls,
        directBytes: direct.count.bytes,
        codeCalls: code.count.calls,
        codeBytes: code.count.bytes,
        bytesRatio: Math.round((code.count.bytes / direct.count.bytes) * 100) / 100,
      });
    }
    const sum = (key: 'directBytes' | 'codeBytes') => rows.reduce((total, row) => total + row[key], 0);
    const listBytes = (extra: ToolCallsOptions) =>
      Buffer.byteLength(JSON.stringify({ tools: listTools(new ToolCalls({ ...options, ...extra })) }));
    return {
      rows,
      toolsListBytes: { direct: listBytes({}), code: listBytes({ codeMode: true }) },
      maxCodeCalls: Math.max(...rows.map((row) => row.codeCalls)),
      totalBytesRatio: Math.round((sum('codeBytes') / sum('directBytes')) * 100) / 100,
    };
  } finally {
    await Promise.all([directory.close(), store.close(), trust.close()]);
  }
}
