/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`, its active server scenarios) against the server's
 * streamable HTTP transport on loopback. Scenarios that need the suite's fixture tools, resources, prompts or
 * capabilities the server does not offer are listed in conformance-baseline.yaml; the suite itself fails the run on
 * any other failure and on a listed scenario that passes.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from './http.js';

const require = createRequire(import.meta.url);
const suiteDir = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const { bin } = require('@modelcontextprotocol/conformance/package.json') as { bin: { conformance: string } };
const baseline = fileURLToPath(new URL('../conformance-baseline.yaml', import.meta.url));

let server: RunningHttpServer;
beforeAll(async () => {
  server = await startHttpServer();
});
afterAll(async () => {
  await server?.close();
});

describe('MCP conformance suite', () => {
  it('passes every active server scenario but the baseline’s', async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(suiteDir, bin.conformance), 'server', '--url', server.url, '--expected-failures', baseline],
        { maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
        (error, out) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: out }),
      );
    });
    const summary = stdout.slice(stdout.indexOf('=== SUMMARY ==='));
    expect(summary, summary).toContain('Baseline check passed');
    expect(code, summary).toBe(0);
    for (const scenario of [
      'server-initialize',
      'ping',
      'tools-list',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
    ]) {
      expect(summary).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
  }, 300_000);
});
