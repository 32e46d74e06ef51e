/**
 * What keeps `tools/list` lean in every mode: shared prose said once in the instructions, output schemas only where
 * they describe the answer, single operations as tool sets, and every mode's schema profile chosen at start.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, STORE_SEARCH_TOOL, serverInstructions } from './catalog.js';
import { ConfigError, readConfig } from './env.js';
import { listTools } from './server.js';
import { ToolCalls } from './tool-calls.js';

describe('a lean tools/list', () => {
  it('says what every tool shares once, in the instructions, not on each tool', () => {
    const tools = listTools(new ToolCalls({ storeToolsets: 'all' }));
    const text = JSON.stringify(tools);
    expect(text).not.toContain('dotted');
    expect(text).not.toContain('answer_more with this cursor');
    expect(tools.filter((tool) => tool.outputSchema).map((tool) => tool.name)).toEqual([]);
    const instructions = serverInstructions(buildCatalog());
    expect(instructions).toContain('`fields`');
    expect(instructions).toContain('answer_more');
    expect(
      buildCatalog()
        .filter((tool) => tool.outputSchema)
        .map((tool) => tool.name),
    ).toEqual([STORE_SEARCH_TOOL]);
  });

  it('takes single store operations as tool sets, beside resources', () => {
    const names = (storeToolsets: string[]) =>
      buildCatalog({ storeToolsets })
        .map((tool) => tool.name)
        .filter((name) => name.startsWith('store_'));
    expect(names(['store.getOrder'])).toEqual(['store_search_operations', 'store_call_operation', 'store_get_order']);
    expect(names(['getOrder'])).toEqual(names(['store.getOrder']));
    const mixed = names(['products', 'store.getOrder']);
    expect(mixed).toContain('store_get_order');
    expect(mixed).toContain('store_list_products');
    expect(mixed).not.toContain('store_list_orders');
    expect(() => buildCatalog({ storeToolsets: ['store.nope'] })).toThrow(/unknown store tool set store\.nope/);
  });

  it('reads single operations and the schema profile from the command line and the environment', () => {
    const config = readConfig(['--store-toolsets', 'products,store.getOrder', '--schema-profile', 'gemini'], {});
    expect(config.storeToolsets).toEqual(['products', 'store.getOrder']);
    expect(config.schemaProfile).toBe('gemini');
    expect(readConfig([], { AGENT_APIS_MCP_SCHEMA_PROFILE: 'openai' }).schemaProfile).toBe('openai');
    expect(() => readConfig(['--schema-profile', 'claude'], {})).toThrow(ConfigError);
    expect(() => readConfig(['--store-toolsets', 'store.nope'], {})).toThrow(/unknown store tool set store\.nope/);
  });

  it('lists tools another module registers (a code mode) and answers them through the same pager', async () => {
    const calls = new ToolCalls({
      extraTools: [
        {
          name: 'execute',
          description: 'Runs a script.',
          inputSchema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
          annotations: { readOnlyHint: true },
          target: { kind: 'extra', call: async (args) => ({ echoed: args.code }) },
        },
      ],
    });
    expect(calls.tools.map((tool) => tool.name).slice(-2)).toEqual(['execute', 'answer_more']);
    const result = await calls.call('execute', { code: '1 + 1' });
    expect(result.structuredContent).toEqual({ data: { echoed: '1 + 1' } });
  });
});
