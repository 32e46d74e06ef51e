/**
 * Tool lists for the drift tests (here and in contract-tests): the pinned store list, a "live" variant of it, and a
 * scratch mirror holding a list. Reads `specs/dist/store.mcp-tools.json`, so it needs `specs:sync` first.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type McpTool, readSyncedToolList } from './mcp-tools.ts';

export const pinnedStore = await readSyncedToolList('store');

/** A deep copy of the pinned store tools, to mutate into a "live" list. */
export function storeTools(): McpTool[] {
  return structuredClone(pinnedStore.list.tools);
}

function tool(tools: McpTool[], name: string): McpTool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** A tools/list as the live server might send it: four new tools, and `list_products.limit` capped at 50. */
export function liveStyleList(): McpTool[] {
  const tools = storeTools();
  const template = tool(tools, 'get_product');
  for (const name of ['list_coupons', 'get_coupon', 'list_shipping_methods', 'get_checkout_settings']) {
    tools.push({ ...structuredClone(template), name, description: `The ${name.replaceAll('_', ' ')}.` });
  }
  const limit = (tool(tools, 'list_products').inputSchema.properties as Record<string, { maximum?: number }>).limit;
  if (limit) limit.maximum = 50;
  return tools;
}

export async function mirrorHolding(tools: McpTool[]): Promise<string> {
  const mirror = await mkdtemp(join(tmpdir(), 'agent-apis-mcp-drift-'));
  await mkdir(join(mirror, 'store'));
  await writeFile(join(mirror, 'store', 'mcp-tools.json'), `${JSON.stringify({ tools }, null, 2)}\n`);
  return mirror;
}
