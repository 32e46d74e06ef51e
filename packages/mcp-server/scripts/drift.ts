/**
 * The tool server's own drift, a step of the nightly after the build: the built server's `tools/list` against the
 * pin (`tools-list.json`), classified by the drift classifier's tool-list rule (`@agent-apis/specs/drift-classify`).
 * Prints the changes; with `--changeset`, writes `.changeset/tools-list-<sha256 prefix of the new list>.md` with the
 * bump they call for (major for a breaking change to a tool). Exits 1 when a change is breaking.
 *
 * Run after a build: `pnpm --filter @agent-apis/mcp-server tools:drift [--changeset]`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// The package by its own name: the built entry at run time, the sources for the type check.
import { listTools, ToolCalls } from '@agent-apis/mcp-server';
import { classifyToolListChanges, toolListChangeset } from '@agent-apis/specs/drift-classify';
import { diffToolLists } from '@agent-apis/specs/mcp-drift';
import type { McpTool } from '@agent-apis/specs/mcp-tools';

const root = join(import.meta.dirname, '..');
const pinned = (JSON.parse(await readFile(join(root, 'tools-list.json'), 'utf8')) as { tools: McpTool[] }).tools;
const current = JSON.parse(JSON.stringify(listTools(new ToolCalls()))) as McpTool[];
const changes = classifyToolListChanges(diffToolLists(pinned, current));
for (const change of changes) console.log(`${change.kind}: ${change.where}: ${change.detail}`);
const changeset = toolListChangeset(pinned, current);
if (!changeset) console.log('tools/list matches tools-list.json');
if (changeset && process.argv.includes('--changeset')) {
  const sha = createHash('sha256').update(JSON.stringify(current)).digest('hex').slice(0, 12);
  const dir = join(root, '..', '..', '.changeset');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `tools-list-${sha}.md`);
  await writeFile(file, changeset);
  console.log(`wrote ${file}`);
}
if (changes.some((change) => change.kind === 'breaking')) process.exitCode = 1;
