/**
 * The default server's `tools/list` against the committed snapshot (`tools-list.json`). A difference fails with the
 * changes classified by the drift check's own rules (`@agent-apis/specs/mcp-drift`: breaking for an agent or
 * client built against the snapshot, or not), so a spec update that changes the tools is seen and reviewed; accept
 * it with `pnpm --filter @agent-apis/mcp-server tools:snapshot`.
 */
import { readFile } from 'node:fs/promises';
import { toolListChangeset } from '@agent-apis/specs/drift-classify';
import { diffToolLists } from '@agent-apis/specs/mcp-drift';
import type { McpTool } from '@agent-apis/specs/mcp-tools';
import { describe, expect, it } from 'vitest';
import { listTools } from './server.js';
import { ToolCalls } from './tool-calls.js';

describe('tools/list snapshot', () => {
  it('equals tools-list.json', async () => {
    const snapshot = JSON.parse(await readFile(new URL('../tools-list.json', import.meta.url), 'utf8')) as {
      tools: McpTool[];
    };
    const current = JSON.parse(JSON.stringify(listTools(new ToolCalls()))) as McpTool[];
    const changes = diffToolLists(snapshot.tools, current).map(
      (change) => `${change.breaking ? 'BREAKING' : 'compatible'} ${change.tool} ${change.where}: ${change.detail}`,
    );
    expect(
      changes,
      'tools/list drifted from tools-list.json (pnpm --filter @agent-apis/mcp-server tools:snapshot)',
    ).toEqual([]);
    expect(current).toEqual(snapshot.tools);
  });

  it('the classifier sees a removed tool and a new required argument as breaking', async () => {
    const current = JSON.parse(JSON.stringify(listTools(new ToolCalls()))) as McpTool[];
    const changed = structuredClone(current).filter((tool) => tool.name !== 'directory_get_stats');
    const search = changed.find((tool) => tool.name === 'directory_search') as { inputSchema: { required?: string[] } };
    search.inputSchema.required = [...(search.inputSchema.required ?? []), 'type'];
    const breaking = diffToolLists(current, changed)
      .filter((change) => change.breaking)
      .map((change) => change.tool);
    expect(breaking.sort()).toEqual(['directory_get_stats', 'directory_search']);
    // The nightly's classifier (tools:drift) asks for a major release of the server for it.
    expect(toolListChangeset(current, changed)?.split('\n')[1]).toBe('"@agent-apis/mcp-server": major');
  });
});
