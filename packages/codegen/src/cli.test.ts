import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

async function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('agent-apis-codegen', () => {
  let dir: string;
  let outDir: string;
  const keptFile = () => join(outDir, 'previous.gen.ts');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'codegen-cli-'));
    outDir = join(dir, 'gen');
    await mkdir(outDir);
    await writeFile(keptFile(), 'previous output\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('prints its usage and exits 2 for an unknown service', async () => {
    const result = await runCli('generate', 'nosuchservice');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: agent-apis-codegen generate <service>');
  });

  it('exits 1 and asks for specs:sync when the final spec is missing, leaving the output alone', async () => {
    const result = await runCli('generate', 'trust', '--spec', join(dir, 'missing.json'), '--out', outDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('does not exist. Run `pnpm specs:sync` first');
    expect(await readFile(keptFile(), 'utf8')).toBe('previous output\n');
  });

  it('refuses a document that did not come from specs:sync (no source hash)', async () => {
    const spec = join(dir, 'trust.openapi.json');
    await writeFile(spec, JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }));
    const result = await runCli('generate', 'trust', '--spec', spec, '--out', outDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("has no info['x-agent-apis-source'].sha256");
  });

  it('exits 1 with the generator error and keeps the previous output when a generator rejects the spec', async () => {
    const spec = join(dir, 'trust.openapi.json');
    const parameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1', 'x-agent-apis-source': { file: 'x', sha256: 'a'.repeat(64) } },
        // `id` is declared as a path parameter of a path that has no {id}: orval refuses the document.
        paths: {
          '/things': {
            get: {
              operationId: 'listThings',
              'x-safety': 'read',
              parameters: [parameter],
              responses: { 200: { description: 'ok' } },
            },
          },
        },
      }),
    );
    const result = await runCli('generate', 'trust', '--spec', spec, '--out', outDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('agent-apis-codegen: OpenAPI spec validation failed');
    expect(result.stderr).toContain('Path parameter \\"id\\" must have the corresponding {id} segment');
    expect(await readFile(keptFile(), 'utf8')).toBe('previous output\n');
  });

  it('exits 1 naming the operation when a fact is missing (no x-safety), for generate and manifest alike', async () => {
    const spec = join(dir, 'trust.openapi.json');
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1', 'x-agent-apis-source': { file: 'x', sha256: 'a'.repeat(64) } },
        paths: { '/things': { get: { operationId: 'listThings', responses: { 200: { description: 'ok' } } } } },
      }),
    );
    for (const command of ['generate', 'manifest']) {
      const result = await runCli(
        command,
        'trust',
        '--spec',
        spec,
        ...(command === 'generate' ? ['--out', outDir] : []),
      );
      expect(result.code, command).toBe(1);
      expect(result.stderr).toContain('agent-apis-codegen: GET /things (listThings) has no x-safety class');
    }
    expect(await readFile(keptFile(), 'utf8')).toBe('previous output\n');
  });
});
