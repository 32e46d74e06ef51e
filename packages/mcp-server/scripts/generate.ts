/**
 * Generates `src/gen/operations.gen.ts`, the server's tool table, from the three services' manifests (written by
 * `agent-apis-codegen manifest <service>`, the same facts the clients' operation tables come from).
 *
 * Run: `pnpm generate` (Node 24 runs this file as is).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readManifest } from '@agent-apis/codegen/manifest';
import { renderToolTable } from '@agent-apis/codegen/tools';
import { SERVICE_NAMES } from '@agent-apis/specs/services';

const outDir = join(import.meta.dirname, '..', 'src', 'gen');
const text = renderToolTable(SERVICE_NAMES.map(readManifest));
await mkdir(outDir, { recursive: true });
await writeFile(join(outDir, 'operations.gen.ts'), text);
console.log(`mcp-server: ${outDir}/operations.gen.ts (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB)`);
