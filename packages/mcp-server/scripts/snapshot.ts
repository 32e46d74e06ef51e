/**
 * Writes `tools-list.json`: the default server's `tools/list` result, the snapshot `src/tools-list.test.ts`
 * compares the server against (with the drift check's classifier, as the vendors' tool lists are watched).
 *
 * Run after a build: `pnpm --filter @agent-apis/mcp-server tools:snapshot`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// The package by its own name: the built entry at run time, the sources for the type check.
import { listTools, ToolCalls } from '@agent-apis/mcp-server';

const file = join(import.meta.dirname, '..', 'tools-list.json');
await writeFile(file, `${JSON.stringify({ tools: listTools(new ToolCalls()) }, null, 2)}\n`);
console.log(`wrote ${file}`);
