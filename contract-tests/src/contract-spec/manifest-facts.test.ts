/**
 * One fact added to one operation of a final spec reaches every consumer through codegen's manifest alone: the
 * runtime rows and the tool table (codegen's emitters), the contract suite's operations and the stand-ins' routes
 * (which read the manifest through `@agent-apis/codegen/manifest`). Nothing outside codegen is told about it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFinalSpec } from '@agent-apis/codegen/final-spec';
import { describeManifest, type Manifest } from '@agent-apis/codegen/manifest';
import { renderOperationsModule } from '@agent-apis/codegen/operations';
import { renderToolTable } from '@agent-apis/codegen/tools';
import type { Operation, Parameter } from '@agent-apis/specs/openapi';
import { startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import { router } from '@agent-apis/test-servers/stand-ins/server';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContractSpec } from './spec.ts';

let dir: string | undefined;
afterEach(async () => {
  delete process.env.AGENT_APIS_MANIFESTS;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * The directory's final spec with `listMcpServers` (`GET /api/mcp`) changed, read by codegen into a manifest that
 * the consumers then read (AGENT_APIS_MANIFESTS points the loader at it).
 */
async function changeListMcpServers(change: (operation: Operation) => void): Promise<Manifest> {
  const spec = await readFinalSpec('directory');
  const document = structuredClone(spec.document);
  change((document.paths as Record<string, { get: Operation }>)['/api/mcp']!.get);
  const manifest = describeManifest({ ...spec, document });
  dir = await mkdtemp(join(tmpdir(), 'manifest-facts-'));
  await writeFile(join(dir, 'directory.json'), JSON.stringify(manifest));
  process.env.AGENT_APIS_MANIFESTS = dir;
  return manifest;
}

function toolRowOf(manifest: Manifest, id: string): Record<string, unknown> | undefined {
  const table = /export const directoryOperations: readonly ToolOperation\[\] = (.*);\n/.exec(
    renderToolTable([manifest]),
  )?.[1];
  return (JSON.parse(table ?? '[]') as Record<string, unknown>[]).find((row) => row.id === id);
}

describe('one fact on one operation, added in the spec alone', () => {
  it('x-spends-quota on a directory read: the tool table, the suite and the stand-ins see it', async () => {
    const before = await loadContractSpec('directory');
    expect(before.operations.find((op) => op.id === 'listMcpServers')?.spendsQuota).toBe(false);

    const manifest = await changeListMcpServers((operation) => {
      operation['x-spends-quota'] = true;
    });
    expect(toolRowOf(manifest, 'listMcpServers')?.safety).toBe('spends-quota');
    expect(toolRowOf(manifest, 'getMcpServer')?.safety).toBe('read');
    const suite = await loadContractSpec('directory');
    expect(suite.operations.find((op) => op.id === 'listMcpServers')).toMatchObject({
      safety: 'read',
      spendsQuota: true,
    });
    expect(router('directory')('GET', '/api/mcp')?.row).toMatchObject({ id: 'listMcpServers', spendsQuota: true });
  });

  it('a tighter check on a query parameter: the runtime row, the tool schema, the suite and the stand-in enforce it', async () => {
    const manifest = await changeListMcpServers((operation) => {
      operation.parameters = (operation.parameters as Parameter[]).map((parameter) =>
        parameter.name === 'limit' ? { ...parameter, schema: { ...parameter.schema, maximum: 7 } } : parameter,
      );
    });
    const runtime = renderOperationsModule(manifest.operations);
    expect(runtime).toMatch(/export const listMcpServersOperation: .*JSON\.parse\('.*"limit":\{[^}]*"maximum":7/s);
    expect(toolRowOf(manifest, 'listMcpServers')).toMatchObject({
      inputSchema: { properties: { limit: { maximum: 7 } } },
    });
    const suite = await loadContractSpec('directory');
    const listing = suite.operations.find((op) => op.id === 'listMcpServers');
    expect(listing?.parameters.find((parameter) => parameter.name === 'limit')?.schema).toMatchObject({ maximum: 7 });

    const standIn = await startDirectoryStandIn({ mode: 'strict' });
    try {
      const tooMany = await fetch(`${standIn.url}/api/mcp?limit=8`);
      expect(tooMany.status).toBe(400);
      expect(await tooMany.json()).toEqual({ error: 'limit too large' });
      expect((await fetch(`${standIn.url}/api/mcp?limit=7`)).status).toBe(200);
    } finally {
      await standIn.close();
    }
  });
});
