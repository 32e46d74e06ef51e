/**
 * `pnpm mock` as a user runs it: the script started as its own process (free ports through `MOCK_PORT=0`), its
 * printed environment lines pasted into the clients, real calls through each mock, and Ctrl-C (SIGTERM here)
 * stopping every server. The default engine (the stand-ins) is checked in full; `--prism` for the switch.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { InternalServerError, NotFoundError } from '@agent-apis/core';
import { DirectoryClient } from '@agent-apis/directory';
import { DirectoryTools, StoreTools } from '@agent-apis/mcp';
import { StoreClient } from '@agent-apis/store';
import { parseWebhook, WebhookSignatureError } from '@agent-apis/store/webhooks';
import { waitForExit } from '@agent-apis/test-utils/processes';
import { REPO_ROOT } from '@agent-apis/test-utils/workspace';
import { TrustClient } from '@agent-apis/trust';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MOCK_SCRIPT = join(import.meta.dirname, 'mock.ts');

/** Starts `pnpm mock` with `args` on free ports; resolves once it printed its last line. */
async function startMock(args: string[]) {
  const child = spawn(process.execPath, [MOCK_SCRIPT, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, MOCK_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const state = { printed: '' };
  child.stdout?.on('data', (chunk: Buffer) => (state.printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (state.printed += chunk.toString()));
  const last = args.length > 1 ? /^export \w+=\S+\n\n/m : /^export DIRECTORY_MCP_URL=/m;
  const deadline = Date.now() + 110_000;
  while (!last.test(state.printed)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pnpm mock did not start:\n${state.printed}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const env: Record<string, string> = {};
  for (const [, name, value] of state.printed.matchAll(/^export (\w+)=(\S+)$/gm)) env[name as string] = value as string;
  const urls = [...state.printed.matchAll(/^ {2}.+? {2}(http:\S+)$/gm)].map(([, url]) => url as string);
  return { child, printed: state.printed, env, urls };
}

describe('pnpm mock', () => {
  let child: ChildProcess;
  let printed = '';
  let env: Record<string, string> = {};
  let urls: string[] = [];

  beforeAll(async () => {
    ({ child, printed, env, urls } = await startMock([]));
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await waitForExit(child, 10_000);
    }
  });

  it('says it serves the stand-ins, and how to switch to Prism', () => {
    expect(printed.split('\n')[0]).toBe(
      "Serving the contract suite's stand-ins: realistic records, writes kept in memory (`pnpm mock --prism` serves Prism).",
    );
  });

  it('prints a base URL per server and the environment lines to paste', () => {
    expect(Object.keys(env).sort()).toEqual(
      [
        'DIRECTORY_BASE_URL',
        'DIRECTORY_MCP_URL',
        'ENTROPY0_API_KEY',
        'STORE_AUTH_TOKEN',
        'STORE_BASE_URL',
        'STORE_HOOKS_TOKEN',
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

  it('answers with realistic records, keeps writes, and sends the store rate-limit headers', async () => {
    const store = new StoreClient({
      baseUrl: env.STORE_BASE_URL,
      login: env.STORE_LOGIN ?? '',
      authToken: env.STORE_AUTH_TOKEN ?? '',
    });
    const { data: mug, response } = await store.products.get(42).withResponse();
    expect(mug).toMatchObject({ id: 42, name: 'Stoneware mug 350 ml', price: 14 });
    expect(response.headers.get('jumpseller-persecondratelimit-limit')).toBe('20');
    expect(response.headers.get('jumpseller-perminuteratelimit-limit')).toBe('800');
    expect(Number(response.headers.get('jumpseller-perminuteratelimit-remaining'))).toBeLessThan(800);
    const variants = await fetch(`${env.STORE_BASE_URL}/products/42/variants.json`, {
      headers: { authorization: `Basic ${btoa(`${env.STORE_LOGIN}:${env.STORE_AUTH_TOKEN}`)}` },
    }).then((answer) => answer.json() as Promise<{ variant: { sku: string; price: number } }[]>);
    expect(variants.map(({ variant }) => `${variant.sku} ${variant.price}`)).toEqual([
      'MUG-350-SND 14',
      'MUG-350-IND 15.5',
    ]);
    const created = await store.products.create({ name: 'Tasting set', price: 32 });
    expect((await store.products.get(created.id as number)).name).toBe('Tasting set');
    await store.products.delete(created.id as number);
    expect(await store.products.get(created.id as number).catch((error: unknown) => error)).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('answers trust decisions that allow, deny, sandbox and escalate, valid from now on', async () => {
    const trust = new TrustClient({ baseUrl: env.TRUST_BASE_URL, apiKey: env.ENTROPY0_API_KEY ?? '', cache: false });
    const actions: Record<string, string> = {};
    for (const host of ['github.com', 'githvb.com', 'paste.example.net', 'secure-payments-example.com']) {
      const decision = await trust.decide(host);
      actions[host] = decision.action;
      expect(decision.validUntil.getTime()).toBeGreaterThan(Date.now());
    }
    expect(actions).toEqual({
      'github.com': 'proceed',
      'githvb.com': 'deny',
      'paste.example.net': 'sandbox',
      'secure-payments-example.com': 'escalate_to_human',
    });
  });

  it('answers Prefer: code=<status> with that status and the service error body', async () => {
    const store = new StoreClient({
      baseUrl: env.STORE_BASE_URL,
      login: env.STORE_LOGIN ?? '',
      authToken: env.STORE_AUTH_TOKEN ?? '',
      maxRetries: 0,
    });
    const missing = await store.products.get(42, {}, { headers: { prefer: 'code=404' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).body).toEqual({ message: 'Prefer: code=404' });
    const directory = new DirectoryClient({ baseUrl: env.DIRECTORY_BASE_URL, maxRetries: 0, cache: false });
    const broken = await directory.stats({ headers: { prefer: 'code=500' } }).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(InternalServerError);
  });

  it('turns a trust base URL without /api into 404s whose message says to add it', async () => {
    const origin = new URL(env.TRUST_BASE_URL ?? '').origin;
    const trust = new TrustClient({ baseUrl: origin, apiKey: env.ENTROPY0_API_KEY ?? '', maxRetries: 0 });
    const error = await trust.decide('github.com').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `\\(hint: the URL has no /api; the API lives under it, so the base URL probably needs it: ${origin}/api\\)$`,
      ),
    );
  });

  it('prints the hooks token and a delivery signed with it that the store webhooks module accepts', async () => {
    expect(env.STORE_HOOKS_TOKEN).toBeTruthy();
    const curl =
      /curl -X POST '[^']*\?event=(\w+)'[\s\S]*?-H 'Jumpseller-Hmac-Sha256: ([^']+)'[\s\S]*?--data '([^']+)'/.exec(
        printed,
      );
    expect(curl, printed).not.toBeNull();
    const [, kind, signature, body] = curl as unknown as [string, 'order_paid', string, string];
    const event = await parseWebhook({ rawBody: body, signature, token: env.STORE_HOOKS_TOKEN ?? '', kind });
    expect(event.kind).toBe('order_paid');
    expect(event.data.id).toBe(1001);
    await expect(parseWebhook({ rawBody: body, signature, token: 'another-token', kind })).rejects.toMatchObject({
      name: WebhookSignatureError.name,
      problem: 'mismatch',
    });
  });

  it('search honours type and limit; trust echoes a strict policy', async () => {
    const search = await fetch(`${env.DIRECTORY_BASE_URL}/api/search?q=e&type=skill&limit=1`);
    const found = (await search.json()) as { type: string; count: number; results: { type: string }[] };
    expect(found).toMatchObject({ type: 'skill', count: 1 });
    expect(found.results.map((r) => r.type)).toEqual(['skill']);
    const decided = await fetch(`${env.TRUST_BASE_URL}/v1/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': env.ENTROPY0_API_KEY ?? '' },
      body: JSON.stringify({
        target: { type: 'domain', value: 'github.com' },
        interaction: { kind: 'initiate_payment', mode: 'transactional', sensitivity: 'high' },
        policy: { profile: 'strict' },
      }),
    });
    const decision = (await decided.json()) as { interaction: unknown; policy_applied: { profile: string } };
    expect(decision.policy_applied.profile).toBe('strict');
    expect(decision.interaction).toEqual({ kind: 'initiate_payment', mode: 'transactional', sensitivity: 'high' });
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

describe('pnpm mock --prism', () => {
  it('serves Prism instead, on the same base path, until SIGTERM', async () => {
    const { child, printed, env } = await startMock(['--prism', 'store']);
    try {
      expect(printed.split('\n')[0]).toBe(
        'Serving Prism on each final spec: answers from its examples, requests checked against it.',
      );
      expect(new URL(env.STORE_BASE_URL ?? '').pathname).toBe('/v1');
      const response = await fetch(`${env.STORE_BASE_URL}/products/count.json`, {
        headers: { authorization: `Basic ${btoa('any:any')}`, prefer: 'code=401' },
      });
      // Prism's own Prefer: the 401 the spec documents for this operation.
      expect(response.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
      await waitForExit(child, 10_000);
    }
    expect(child.exitCode).toBe(0);
  }, 120_000);
});

describe('pnpm mock on a taken port', () => {
  it('prints one line naming MOCK_PORT, no stack trace, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const child = spawn(process.execPath, [MOCK_SCRIPT, 'directory'], {
        cwd: REPO_ROOT,
        env: { ...process.env, MOCK_PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await waitForExit(child, 60_000);
      expect(child.exitCode).toBe(1);
      expect(stdout).toBe('');
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^pnpm mock: port ${port} is taken; set MOCK_PORT`));
      expect(stderr).not.toMatch(/^\s+at /m);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  }, 90_000);
});
