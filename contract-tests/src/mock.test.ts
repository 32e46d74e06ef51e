/**
 * `pnpm mock` as a user runs it: the script started as its own process (free ports through `MOCK_PORT=0`), its
 * printed environment lines pasted into the clients, real calls through each mock, and Ctrl-C (SIGTERM here)
 * stopping every server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '@agent-apis/core';
import { DirectoryClient } from '@agent-apis/directory';
import { DirectoryTools, StoreTools } from '@agent-apis/mcp';
import { StoreClient } from '@agent-apis/store';
import { TrustClient } from '@agent-apis/trust';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForExit } from './prism.ts';
import { REPO_ROOT } from './workspace.ts';

const MOCK_SCRIPT = join(REPO_ROOT, 'contract-tests', 'src', 'mock.ts');

describe('pnpm mock', () => {
  let child: ChildProcess;
  let printed = '';
  const env: Record<string, string> = {};
  const urls: string[] = [];

  beforeAll(async () => {
    child = spawn(process.execPath, [MOCK_SCRIPT], {
      cwd: REPO_ROOT,
      env: { ...process.env, MOCK_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const deadline = Date.now() + 110_000;
    while (!/^export DIRECTORY_MCP_URL=/m.test(printed)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pnpm mock did not start:\n${printed}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const [, name, value] of printed.matchAll(/^export (\w+)=(\S+)$/gm)) env[name as string] = value as string;
    for (const [, url] of printed.matchAll(/^ {2}.+? {2}(http:\S+)$/gm)) urls.push(url as string);
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await waitForExit(child, 10_000);
    }
  });

  it('prints a base URL per server and the environment lines to paste', () => {
    expect(Object.keys(env).sort()).toEqual(
      [
        'DIRECTORY_BASE_URL',
        'DIRECTORY_MCP_URL',
        'ENTROPY0_API_KEY',
        'STORE_AUTH_TOKEN',
        'STORE_BASE_URL',
        'STORE_LOGIN',
        'STORE_MCP_URL',
        'TRUST_BASE_URL',
      ].sort(),
    );
    expect(urls).toEqual([
      env.DIRECTORY_BASE_URL,
      env.STORE_BASE_URL,
      env.TRUST_BASE_URL,
      env.STORE_MCP_URL,
      env.DIRECTORY_MCP_URL,
    ]);
  });

  it('prints what the README documents, on other ports', async () => {
    const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Mocks'), readme.indexOf('## Runtimes'));
    const documented = [...section.matchAll(/^export (\w+)=(\S+)$/gm)].map(([, name, value]) => `${name}=${value}`);
    const anyPort = (line: string) => line.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:PORT');
    expect(Object.entries(env).map(([name, value]) => anyPort(`${name}=${value}`))).toEqual(documented.map(anyPort));
  });

  it('keeps the real base paths: the store under /v1, trust under /api', async () => {
    expect(new URL(env.STORE_BASE_URL ?? '').pathname).toBe('/v1');
    expect(new URL(env.TRUST_BASE_URL ?? '').pathname).toBe('/api');
    const store = new StoreClient({
      baseUrl: env.STORE_BASE_URL,
      login: env.STORE_LOGIN ?? '',
      authToken: env.STORE_AUTH_TOKEN ?? '',
    });
    const { count } = await store.api.countProducts();
    expect(Number.isInteger(count)).toBe(true);
  });

  it('answers the three clients configured from the printed lines', async () => {
    const directory = new DirectoryClient({ baseUrl: env.DIRECTORY_BASE_URL });
    const trust = new TrustClient({ baseUrl: env.TRUST_BASE_URL, apiKey: env.ENTROPY0_API_KEY ?? '' });
    const found = await directory.search({ q: 'github', limit: 5 });
    expect(Array.isArray(found.results)).toBe(true);
    const decision = await trust.decide('example.com');
    expect(['proceed', 'proceed_with_caution', 'sandbox', 'escalate', 'deny']).toContain(decision.action);
  });

  it('answers the tool clients configured from the printed lines', async () => {
    const storeTools = new StoreTools({
      url: env.STORE_MCP_URL,
      loginKey: env.STORE_LOGIN ?? '',
      authToken: env.STORE_AUTH_TOKEN ?? '',
    });
    const directoryTools = new DirectoryTools({ url: env.DIRECTORY_MCP_URL });
    try {
      const products = await storeTools.listProducts({ limit: 2 });
      expect(products.content.length).toBeGreaterThan(0);
      const servers = await directoryTools.searchMcpServers({ query: 'postgres', limit: 2 });
      expect(servers.content.length).toBeGreaterThan(0);
    } finally {
      await Promise.all([storeTools.close(), directoryTools.close()]);
    }
  });

  it('turns a store base URL without /v1 into 404s whose message says to add it', async () => {
    const origin = new URL(env.STORE_BASE_URL ?? '').origin;
    const store = new StoreClient({ baseUrl: origin, login: 'mock', authToken: 'mock' });
    const error = await store.api.countProducts().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    const message = (error as Error).message;
    expect(
      message.startsWith(`404 Not Found on countProducts (GET /products/count.json) at ${origin}/products/count.json`),
    ).toBe(true);
    expect(
      message.endsWith(
        `(hint: the URL has no /v1; the API lives under it, so the base URL probably needs it: ${origin}/v1)`,
      ),
    ).toBe(true);
  });

  it('stops every server on SIGTERM', async () => {
    child.kill('SIGTERM');
    await waitForExit(child, 10_000);
    expect(child.exitCode).toBe(0);
    for (const url of urls) {
      const refused = await fetch(url).then(
        () => false,
        () => true,
      );
      expect(refused, url).toBe(true);
    }
  });
});
