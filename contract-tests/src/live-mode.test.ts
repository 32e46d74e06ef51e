/**
 * Live mode end to end: the contract suite, run as a user runs it (`CONTRACT_TARGET=live`), against a
 * stand-in "live" directory server on loopback, through Prism's validating proxy. A server that breaks its
 * spec must fail the run naming the operation, the field and the violation; a conforming one must pass, and
 * services without configuration must be reported skipped, never passed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismServer, startPrism } from './prism.ts';
import { SPECS_DIST } from './spec.ts';

const run = promisify(execFile);
const packageDir = join(import.meta.dirname, '..');

/** Forwards to `upstream`, but answers GET /api/stats with `personas` as a string (the spec says integer). */
function violatingServer(upstream: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const answer = await fetch(`${upstream}${request.url}`, { headers: { accept: 'application/json' } });
    let body = await answer.text();
    if (request.url?.startsWith('/api/stats')) body = JSON.stringify({ ...JSON.parse(body), personas: 'many' });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server });
    }),
  );
}

async function contractLive(directoryBaseUrl: string) {
  const reports = await mkdtemp(join(tmpdir(), 'agent-apis-live-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    CONTRACT_TARGET: 'live',
    CONTRACT_REPORTS_DIR: reports,
    DIRECTORY_BASE_URL: directoryBaseUrl,
  };
  const args = [
    'vitest',
    'run',
    '--project',
    'contract',
    'src/directory.contract.test.ts',
    'src/store.contract.test.ts',
  ];
  const vitest = join(packageDir, 'node_modules', 'vitest', 'vitest.mjs');
  try {
    const { stdout, stderr } = await run(process.execPath, [vitest, ...args.slice(1)], { cwd: packageDir, env });
    return { code: 0, output: stdout + stderr, reports };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr, reports };
  }
}

describe('contract suite in live mode', () => {
  let upstream: PrismServer;
  let violating: { url: string; server: Server };

  beforeAll(async () => {
    upstream = await startPrism({
      name: 'directory-standin',
      spec: join(SPECS_DIST, 'directory.openapi.json'),
      logDir: join(tmpdir(), 'agent-apis-live-standin'),
    });
    violating = await violatingServer(upstream.url);
  });
  afterAll(async () => {
    violating?.server.close();
    await upstream?.stop();
  });

  it('fails against a server that violates the spec, naming operation, field and violation', async () => {
    const result = await contractLive(violating.url);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/getStats: 500 \S*VIOLATIONS — response\.body\.personas: .*must be integer/);
  });

  it('passes against a conforming server and reports unconfigured services as skipped, not passed', async () => {
    const result = await contractLive(upstream.url);
    expect(result.output).not.toMatch(/VIOLATIONS/);
    expect(result.code).toBe(0);
    const summaries = JSON.parse(await readFile(join(result.reports, 'live', 'coverage.json'), 'utf8')) as {
      service: string;
      operationsExercised: number;
      operationsTotal: number;
      skipped?: string;
    }[];
    const directory = summaries.find((s) => s.service === 'directory');
    const store = summaries.find((s) => s.service === 'store');
    expect(directory).toMatchObject({ operationsExercised: 11, operationsTotal: 11 });
    expect(store).toMatchObject({ operationsExercised: 0, skipped: expect.stringMatching(/^no credentials/) });
  });
});
