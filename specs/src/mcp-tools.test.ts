import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonResponse } from '@agent-apis/test-utils/fetch';
import { fakeToolServer, textResult } from '@agent-apis/test-utils/mcp-server';
import { LATEST_PROTOCOL_VERSION, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  credentialEnvVars,
  mcpToolsPaths,
  missingServerAccess,
  readPinnedTools,
  readSyncedToolList,
  readToolsLock,
  syncToolList,
  syncToolLists,
  updateToolsPin,
} from './mcp-tools.ts';
import { SpecHashMismatchError, SpecSourceError, sha256 } from './source.ts';
import { MIRROR, scratchSpecsRoot } from './test-support.ts';

const storeLock = await readToolsLock(mcpToolsPaths('store').lock);
const directoryLock = await readToolsLock(mcpToolsPaths('directory').lock);
const storeMirrored = await readFile(join(MIRROR, 'store', 'mcp-tools.json'));

/** A mirror folder holding `store/mcp-tools.json` with the given bytes. */
async function mirrorWith(bytes: Uint8Array | string): Promise<string> {
  const mirror = await mkdtemp(join(tmpdir(), 'agent-apis-mcp-mirror-'));
  await mkdir(join(mirror, 'store'));
  await writeFile(join(mirror, 'store', 'mcp-tools.json'), bytes);
  return mirror;
}

describe('pinned tools/list results', () => {
  it('accepts the mirrored result whose sha256 is pinned', async () => {
    const fetched = await readPinnedTools(storeLock, { mirror: MIRROR });
    expect(fetched.sha256).toBe(storeLock.sha256);
    expect(sha256(storeMirrored)).toBe(storeLock.sha256);
    expect(storeLock.tools).toBe(20);
    expect(directoryLock.tools).toBe(3);
  });

  it('refuses a result with one byte changed, naming the service, both hashes and the accepting command', async () => {
    const changed = Buffer.from(storeMirrored);
    changed[40] = changed[40] === 0x61 ? 0x62 : 0x61;
    const mirror = await mirrorWith(changed);
    const error = await readPinnedTools(storeLock, { mirror }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecHashMismatchError);
    const message = (error as Error).message;
    expect(message).toContain('store: the tools/list result does not match its pin.');
    expect(message).toContain(`expected sha256 ${storeLock.sha256}`);
    expect(message).toContain(`actual   sha256 ${sha256(changed)}`);
    expect(message).toContain(`read from       ${join(mirror, 'store', 'mcp-tools.json')}`);
    expect(message).toContain('If this change is intended, accept it with: pnpm mcp:update store');
  });

  it('explains a missing mirror file', async () => {
    const error = await readPinnedTools(directoryLock, { mirror: '/nonexistent/mirror' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecSourceError);
    expect((error as Error).message).toBe(
      'directory: cannot read the mirrored document /nonexistent/mirror/directory/mcp-tools.json (ENOENT). ' +
        'SPECS_MIRROR=/nonexistent/mirror must hold directory/mcp-tools.json.',
    );
  });

  it('says which variables a network read needs, naming no credential value', async () => {
    expect(missingServerAccess(directoryLock, {})).toEqual(['DIRECTORY_MCP_URL']);
    expect(missingServerAccess(storeLock, { STORE_MCP_LOGIN_KEY: 'login-key-1' })).toEqual(['STORE_MCP_AUTH_TOKEN']);
    expect(missingServerAccess(storeLock, { STORE_MCP_LOGIN_KEY: 'k', STORE_MCP_AUTH_TOKEN: 't' })).toEqual([]);
    await expect(readPinnedTools(directoryLock, { env: {} })).rejects.toThrow(
      'directory: the source URL {DIRECTORY_MCP_URL} needs DIRECTORY_MCP_URL, which is not set. ' +
        'Set DIRECTORY_MCP_URL, or set SPECS_MIRROR to a folder holding directory/mcp-tools.json.',
    );
    const error = await readPinnedTools(storeLock, { env: { STORE_MCP_LOGIN_KEY: 'secret-login-key' } }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toContain('needs the X-AUTH-TOKEN header from STORE_MCP_AUTH_TOKEN');
    expect((error as Error).message).not.toContain('secret-login-key');
  });

  it("reads the REST client's STORE_LOGIN + STORE_AUTH_TOKEN when either is set, else the earlier pair, never mixed", () => {
    const rest = { 'X-LOGIN-KEY': 'STORE_LOGIN', 'X-AUTH-TOKEN': 'STORE_AUTH_TOKEN' };
    const alias = { 'X-LOGIN-KEY': 'STORE_MCP_LOGIN_KEY', 'X-AUTH-TOKEN': 'STORE_MCP_AUTH_TOKEN' };
    const aliases = { STORE_MCP_LOGIN_KEY: 'alias-login-1', STORE_MCP_AUTH_TOKEN: 'alias-token-1' };
    expect(credentialEnvVars('store', { STORE_LOGIN: 'l', STORE_AUTH_TOKEN: 't', ...aliases })).toEqual(rest);
    expect(credentialEnvVars('store', { STORE_AUTH_TOKEN: 't', ...aliases })).toEqual(rest);
    expect(credentialEnvVars('store', { STORE_LOGIN: ' ', STORE_AUTH_TOKEN: '', ...aliases })).toEqual(alias);
    expect(credentialEnvVars('store', {})).toEqual(alias);
    expect(credentialEnvVars('directory', { STORE_LOGIN: 'l' })).toEqual({});

    expect(missingServerAccess(storeLock, {})).toEqual(['STORE_LOGIN', 'STORE_AUTH_TOKEN']);
    expect(missingServerAccess(storeLock, { STORE_LOGIN: 'l', STORE_AUTH_TOKEN: 't' })).toEqual([]);
    expect(missingServerAccess(storeLock, { STORE_LOGIN: 'rest-login-1', ...aliases })).toEqual(['STORE_AUTH_TOKEN']);
    expect(missingServerAccess(storeLock, { STORE_LOGIN: '', STORE_AUTH_TOKEN: '', ...aliases })).toEqual([]);
  });

  it('names both pairs when no credential is set, and the missing half of the pair in use, never a value', async () => {
    await expect(readPinnedTools(storeLock, { env: { STORE_LOGIN: ' ', STORE_MCP_AUTH_TOKEN: '' } })).rejects.toThrow(
      'store: the tool server needs credentials, and none is set. Set STORE_LOGIN and STORE_AUTH_TOKEN ' +
        '(or STORE_MCP_LOGIN_KEY and STORE_MCP_AUTH_TOKEN), or set SPECS_MIRROR to a folder holding store/mcp-tools.json.',
    );
    const env = {
      STORE_LOGIN: 'secret-login-4',
      STORE_MCP_LOGIN_KEY: 'secret-alias-4',
      STORE_MCP_AUTH_TOKEN: 'secret-5',
    };
    const error = await readPinnedTools(storeLock, { env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecSourceError);
    expect((error as Error).message).toBe(
      'store: the tool server needs the X-AUTH-TOKEN header from STORE_AUTH_TOKEN, which is not set. ' +
        'Set STORE_LOGIN and STORE_AUTH_TOKEN, or set SPECS_MIRROR to a folder holding store/mcp-tools.json.',
    );
  });

  it("sends STORE_LOGIN + STORE_AUTH_TOKEN, the REST client's names, and prefers them to the earlier pair", async () => {
    const { tools, ...listFields } = JSON.parse(storeMirrored.toString('utf8')) as { tools: Tool[] };
    const handle = () => textResult('unused');
    const sent = async (env: Record<string, string>) => {
      const server = fakeToolServer({ tools, listFields, handle });
      await readPinnedTools(storeLock, { env, fetch: server.fetch });
      const posts = server.requests.filter((r) => r.method === 'POST');
      expect(posts.length).toBeGreaterThan(0);
      return new Set(posts.map((r) => `${r.headers.get('x-login-key')} ${r.headers.get('x-auth-token')}`));
    };
    const rest = { STORE_LOGIN: 'rest-login-6', STORE_AUTH_TOKEN: ' rest-token-6 ' };
    expect(await sent(rest)).toEqual(new Set(['rest-login-6 rest-token-6']));
    const both = { ...rest, STORE_MCP_LOGIN_KEY: 'alias-login-6', STORE_MCP_AUTH_TOKEN: 'alias-token-6' };
    expect(await sent(both)).toEqual(new Set(['rest-login-6 rest-token-6']));
  });

  for (const format of ['sse', 'json'] as const) {
    it(`reads a paged result from the server (${format}) into the pinned bytes, sending the credential headers`, async () => {
      const { tools, ...listFields } = JSON.parse(storeMirrored.toString('utf8')) as { tools: Tool[] };
      const handle = () => textResult('unused');
      const server = fakeToolServer({ tools, listFields, handle, format, pageSize: 10 });
      const env = { STORE_MCP_LOGIN_KEY: 'login-key-7', STORE_MCP_AUTH_TOKEN: 'auth-token-7' };
      const fetched = await readPinnedTools(storeLock, { env, fetch: server.fetch });
      expect(fetched.sha256).toBe(storeLock.sha256);
      expect(fetched.origin).toBe('https://mcp.jumpseller.com (tools/list)');
      expect(server.methods()).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/list']);
      const posts = server.requests.filter((r) => r.method === 'POST');
      for (const request of posts) {
        expect(request.url).toBe('https://mcp.jumpseller.com/');
        expect(request.headers.get('x-login-key')).toBe('login-key-7');
        expect(request.headers.get('x-auth-token')).toBe('auth-token-7');
      }
      expect(posts.at(-1)?.headers.get('mcp-protocol-version')).toBe(LATEST_PROTOCOL_VERSION);
      expect(posts.at(-1)?.message?.params).toEqual({ cursor: '10' });
    });
  }

  it('stops a server that repeats a tools/list cursor, and one that pages on without end', async () => {
    const env = { STORE_MCP_LOGIN_KEY: 'login-key-9', STORE_MCP_AUTH_TOKEN: 'auth-token-9' };
    const handle = () => textResult('unused');
    const repeating = fakeToolServer({ tools: [], handle, nextCursor: (cursor) => (cursor ? 'b' : 'a') });
    await expect(readPinnedTools(storeLock, { env, fetch: repeating.fetch })).rejects.toThrow(
      'store: https://mcp.jumpseller.com kept paging tools/list (a repeated cursor, or more than 100 pages)',
    );
    expect(repeating.methods().filter((method) => method === 'tools/list')).toHaveLength(3);
    let next = 0;
    const endless = fakeToolServer({ tools: [], handle, nextCursor: () => String(++next) });
    await expect(readPinnedTools(storeLock, { env, fetch: endless.fetch })).rejects.toThrow('kept paging tools/list');
    expect(endless.methods().filter((method) => method === 'tools/list')).toHaveLength(101);
  });

  it('reports a JSON-RPC error and a server that does not answer in time, naming the method', async () => {
    const env = { STORE_MCP_LOGIN_KEY: 'login-key-10', STORE_MCP_AUTH_TOKEN: 'auth-token-10' };
    const server = fakeToolServer({ tools: [], handle: () => textResult('unused') });
    /** The server, except that `tools/list` is answered by `answer` with the request's JSON-RPC id. */
    const failingList = (answer: (id: unknown, signal: AbortSignal) => Promise<Response>) =>
      (async (input: string | URL | Request, init?: RequestInit) => {
        const message = init?.body ? (JSON.parse(String(init.body)) as { id?: unknown; method?: string }) : {};
        if (message.method !== 'tools/list') return server.fetch(input, init);
        return answer(message.id, init?.signal ?? new AbortController().signal);
      }) as typeof globalThis.fetch;

    const refusing = failingList(async (id) =>
      jsonResponse({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }),
    );
    await expect(readPinnedTools(storeLock, { env, fetch: refusing })).rejects.toThrow(
      'store: https://mcp.jumpseller.com refused tools/list (MCP error -32601: Method not found)',
    );

    const silent = failingList(
      (_id, signal) =>
        new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    await expect(readPinnedTools(storeLock, { env, fetch: silent, timeoutMs: 50 })).rejects.toThrow(
      'store: https://mcp.jumpseller.com did not answer tools/list within 50 ms',
    );
  });

  it('takes the server address from STORE_MCP_URL when set, and reports an HTTP refusal without credentials', async () => {
    const urls: string[] = [];
    const fetch = (async (url: string | URL | Request) => {
      urls.push(String(url));
      return new Response('denied', { status: 401, statusText: 'Unauthorized' });
    }) as typeof globalThis.fetch;
    const env = {
      STORE_MCP_URL: 'http://127.0.0.1:9/mcp/',
      STORE_MCP_LOGIN_KEY: 'login-key-8',
      STORE_MCP_AUTH_TOKEN: 'auth-token-8',
    };
    const error = await readPinnedTools(storeLock, { env, fetch }).catch((e: unknown) => e);
    expect(urls).toEqual(['http://127.0.0.1:9/mcp']);
    expect((error as Error).message).toBe('store: http://127.0.0.1:9/mcp answered HTTP 401 Unauthorized to initialize');
  });

  it("specs:sync's summary lists each service with a tool server, its pinned hash and tool count", async () => {
    const root = await scratchSpecsRoot();
    const summary = await syncToolLists(['trust', 'store', 'directory'], { mirror: MIRROR, root });
    const rows = summary.split('\n').map((line) => line.split(/\s{2,}/));
    expect(rows.find(([service]) => service === 'store')).toEqual([
      'store',
      storeLock.sha256,
      '20',
      'specs/dist/store.mcp-tools.json',
    ]);
    expect(rows.find(([service]) => service === 'directory')?.slice(0, 3)).toEqual([
      'directory',
      directoryLock.sha256,
      '3',
    ]);
    expect(rows.some(([service]) => service === 'trust')).toBe(false);
    expect(await syncToolLists(['trust'], { mirror: MIRROR, root })).toBe('');
  });

  it('sync writes the verified bytes to dist; update pins a changed result with its tool count', async () => {
    const root = await scratchSpecsRoot();
    const synced = await syncToolList('store', { mirror: MIRROR, root });
    expect(synced).toMatchObject({ service: 'store', sha256: storeLock.sha256, tools: 20 });
    expect(sha256(await readFile(synced.file))).toBe(storeLock.sha256);
    expect((await readSyncedToolList('store', root)).list.tools).toHaveLength(20);

    const grown = JSON.parse(storeMirrored.toString('utf8')) as { tools: { name: string }[] };
    grown.tools.push({ ...grown.tools[0]!, name: 'list_coupons' });
    const bytes = `${JSON.stringify(grown, null, 2)}\n`;
    const now = new Date('2026-12-01T00:00:00.000Z');
    const update = await updateToolsPin('store', { mirror: await mirrorWith(bytes), root, now });
    expect(update.changed).toBe(true);
    const lock = await readToolsLock(mcpToolsPaths('store', root).lock);
    expect(lock).toEqual({ ...storeLock, sha256: sha256(bytes), fetchedAt: now.toISOString(), tools: 21 });
    await expect(readSyncedToolList('store', root)).rejects.toThrow(/is not the pinned tools\/list result.*specs:sync/);
  });
});
