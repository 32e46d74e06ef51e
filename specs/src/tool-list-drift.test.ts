/**
 * The tool-list rule of the drift classifier: our own tool server's pinned `tools/list`
 * (`packages/mcp-server/tools-list.json`) against a changed one. A breaking change to one of our tools calls for a
 * major changeset of `@agent-apis/mcp-server`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyToolListChanges, toolListChangeset } from './drift-classify.ts';
import type { McpTool } from './mcp-tools.ts';
import { REPO_ROOT } from './services.ts';

async function pinned(): Promise<McpTool[]> {
  const file = join(REPO_ROOT, 'packages', 'mcp-server', 'tools-list.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { tools: McpTool[] }).tools;
}

describe('tool-list rule', () => {
  it('a removed tool and a narrowed argument are breaking: a major changeset of the tool server', async () => {
    const before = await pinned();
    const after = structuredClone(before).filter((tool) => tool.name !== 'directory_get_stats');
    const search = after.find((tool) => tool.name === 'directory_search') as McpTool;
    const properties = search.inputSchema.properties as Record<string, Record<string, unknown>>;
    properties.limit = { ...properties.limit, maximum: 2 };
    const text = toolListChangeset(before, after);
    expect(text?.split('\n').slice(0, 3)).toEqual(['---', '"@agent-apis/mcp-server": major', '---']);
    expect(text).toContain('breaking: tool directory_get_stats tool: tool removed');
    expect(text).toMatch(/breaking: tool directory_search arguments\.limit: .*maximum/);
  });

  it('an added tool is minor, a description change patch, no change no changeset', async () => {
    const before = await pinned();
    const added = [...before, { name: 'extra_tool', inputSchema: { type: 'object' } } as McpTool];
    expect(toolListChangeset(before, added)?.split('\n')[1]).toBe('"@agent-apis/mcp-server": minor');
    const described = structuredClone(before);
    (described[0] as McpTool).description = 'Changed.';
    expect(toolListChangeset(before, described)?.split('\n')[1]).toBe('"@agent-apis/mcp-server": patch');
    expect(toolListChangeset(before, before)).toBeUndefined();
    expect(classifyToolListChanges([])).toEqual([]);
  });
});
