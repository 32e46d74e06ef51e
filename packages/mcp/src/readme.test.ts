/**
 * The README's code is the files in `examples/`: this checks that every fenced example equals its file, and runs
 * each file against a fake tool server serving the pinned tools (through a stubbed global `fetch`), checking what
 * it prints.
 */

import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { CANARY, fakeToolServer, textResult } from '@agent-apis/test-utils/mcp-server';
import { exampleNames, expectReadmeToEmbedEveryExample, runExample } from '@agent-apis/test-utils/readme';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const packageRoot = new URL('../', import.meta.url);

describe('README', () => {
  it('embeds every example file verbatim, each exactly once', async () => {
    await expectReadmeToEmbedEveryExample(packageRoot);
  });
});

const tools = [
  ...(await readSyncedToolList('store')).list.tools,
  ...(await readSyncedToolList('directory')).list.tools,
] as Tool[];

/** The fake server's answers, by tool. */
const answers: Record<string, (args: Record<string, unknown>) => ReturnType<typeof textResult>> = {
  search_mcp_servers: (args) => textResult(`postgres-mcp (official: ${args.official}, limit ${args.limit})`),
  list_products: () => ({ content: [textResult('Mug').content[0]!, textResult('Teapot').content[0]!] }),
  get_store_info: () => textResult('Mug Shop (CLP)'),
  get_product: (args) => textResult(`Product ${args.id} not found`, true),
};

const expectations: Record<string, { prints: string[]; sent?: string[] }> = {
  'quick-start': {
    prints: ['postgres-mcp (official: true, limit 3)', '2 content block(s)'],
    sent: ['tools/call:search_mcp_servers', 'tools/call:list_products'],
  },
  authentication: { prints: ['Mug Shop (CLP)'], sent: ['tools/call:get_store_info'] },
  errors: {
    prints: [
      'not sent: arguments.limit must be at most 100',
      'get_product: Tool get_product reported an error: Product 404 not found',
    ],
    sent: ['tools/call:get_product'],
  },
  // Brings its own fake server: nothing reaches the stubbed fetch.
  testing: { prints: ['Mug Shop (CLP)'], sent: [] },
};

describe('README examples, run against a fake tool server', () => {
  let server: ReturnType<typeof fakeToolServer>;
  beforeEach(() => {
    server = fakeToolServer({
      tools,
      handle: (name, args, headers) => {
        if (headers.get('x-auth-token') && headers.get('x-auth-token') !== CANARY.authToken) {
          return textResult('wrong token', true);
        }
        return answers[name]?.(args) ?? textResult(`unexpected call of ${name}`, true);
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    vi.stubEnv('DIRECTORY_MCP_URL', 'http://127.0.0.1:8400/mcp');
    vi.stubEnv('STORE_LOGIN', CANARY.loginKey);
    vi.stubEnv('STORE_AUTH_TOKEN', CANARY.authToken);
    vi.stubEnv('MY_SHOP_LOGIN_KEY', CANARY.loginKey);
    vi.stubEnv('MY_SHOP_AUTH_TOKEN', CANARY.authToken);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  it('covers every example', async () => {
    expect(Object.keys(expectations).sort()).toEqual(await exampleNames(packageRoot));
  });

  for (const [name, expected] of Object.entries(expectations)) {
    it(`${name} prints what the README says`, async () => {
      expect(await runExample(packageRoot, name)).toEqual(expected.prints);
      if (expected.sent) expect(server.methods().filter((m) => m.startsWith('tools/call'))).toEqual(expected.sent);
    });
  }
});
