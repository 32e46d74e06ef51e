import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  MissingCredentialsError,
  RequestValidationError,
  ResponseValidationError,
} from '@agent-apis/core';
import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { everythingIn } from '@agent-apis/test-utils/errors';
import { CANARY, fakeToolServer, textResult } from '@agent-apis/test-utils/mcp-server';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { DirectoryTools } from './directory.js';
import { ToolError } from './errors.js';
import * as entry from './index.js';
import { StoreTools } from './store.js';
import { MAX_TOOL_LIST_PAGES, ToolServerClient } from './tool-client.js';

const storeTools = (await readSyncedToolList('store')).list.tools as Tool[];
const directoryTools = (await readSyncedToolList('directory')).list.tools as Tool[];

/** Echoes the tool name and arguments back as JSON. */
const echo = (name: string, args: Record<string, unknown>) => textResult(JSON.stringify({ name, args }));

afterEach(() => {
  vi.unstubAllEnvs();
});

/**
 * A `fetch` that holds the `initialize` request until {@link release} (ignoring its signal, as some do); `sent`
 * settles once that request has come.
 */
function heldInitialize(send: typeof globalThis.fetch) {
  let release: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const sent = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    if (String(init?.body).includes('"method":"initialize"')) {
      arrived();
      await released;
    }
    return send(input, init);
  }) as typeof globalThis.fetch;
  return { fetch, sent, release: () => release() };
}

describe('environment-variable constants', () => {
  it('are exported as *_ENV_VAR(S), naming the variables the clients read', () => {
    expect(entry.DIRECTORY_MCP_URL_ENV_VAR).toBe('DIRECTORY_MCP_URL');
    expect(entry.STORE_MCP_ENV_VARS).toEqual({
      url: 'STORE_MCP_URL',
      loginKey: 'STORE_LOGIN',
      authToken: 'STORE_AUTH_TOKEN',
    });
    expect(entry.STORE_MCP_ALIAS_ENV_VARS).toEqual({
      loginKey: 'STORE_MCP_LOGIN_KEY',
      authToken: 'STORE_MCP_AUTH_TOKEN',
    });
  });

  it('keep the earlier *_ENV names as aliases of the same values', () => {
    expect(entry.DIRECTORY_MCP_URL_ENV).toBe(entry.DIRECTORY_MCP_URL_ENV_VAR);
    expect(entry.STORE_MCP_ENV).toBe(entry.STORE_MCP_ENV_VARS);
    expect(entry.STORE_MCP_ENV_ALIASES).toBe(entry.STORE_MCP_ALIAS_ENV_VARS);
  });
});

describe('StoreTools', () => {
  it('calls a tool by its typed method, sending the credential headers to the default server', async () => {
    const server = fakeToolServer({ tools: storeTools, handle: echo });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const result = await tools.listProducts({ status: 'available', limit: 5 });
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify({ name: 'list_products', args: { status: 'available', limit: 5 } }) },
    ]);
    expect(server.methods()).toEqual(['initialize', 'notifications/initialized', 'tools/call:list_products']);
    for (const request of server.requests.filter((r) => r.method === 'POST')) {
      expect(request.url).toBe('https://mcp.jumpseller.com/');
      expect(request.headers.get('x-login-key')).toBe(CANARY.loginKey);
      expect(request.headers.get('x-auth-token')).toBe(CANARY.authToken);
    }
    await tools.close();
  });

  it('connects once for many calls, and again after close()', async () => {
    const server = fakeToolServer({ tools: storeTools, handle: echo, format: 'json' });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    await Promise.all([tools.getStoreInfo(), tools.listCategories(), tools.getOrder({ id: 7 })]);
    expect(server.methods().filter((m) => m === 'initialize')).toHaveLength(1);
    await tools.close();
    await tools.deletePage({ id: 3 });
    expect(server.methods().filter((m) => m === 'initialize')).toHaveLength(2);
    await tools.close();
  });

  it('reads credentials and the server URL from the environment when the options leave them out', async () => {
    vi.stubEnv('STORE_LOGIN', '');
    vi.stubEnv('STORE_AUTH_TOKEN', '');
    vi.stubEnv('STORE_MCP_LOGIN_KEY', 'env-login-key-1');
    vi.stubEnv('STORE_MCP_AUTH_TOKEN', 'env-auth-token-1');
    vi.stubEnv('STORE_MCP_URL', 'http://127.0.0.1:8123/mcp');
    const server = fakeToolServer({ tools: storeTools, handle: echo });
    const tools = new StoreTools({ fetch: server.fetch });
    expect(tools.url).toBe('http://127.0.0.1:8123/mcp');
    await tools.getProduct({ id: 1 });
    const call = server.requests.at(-1);
    expect(call?.url).toBe('http://127.0.0.1:8123/mcp');
    expect(call?.headers.get('x-login-key')).toBe('env-login-key-1');
    expect(call?.headers.get('x-auth-token')).toBe('env-auth-token-1');
    await tools.close();
  });

  it("reads the REST client's STORE_LOGIN and STORE_AUTH_TOKEN first: one pair, one naming", async () => {
    vi.stubEnv('STORE_LOGIN', 'rest-login-1');
    vi.stubEnv('STORE_AUTH_TOKEN', 'rest-token-1');
    vi.stubEnv('STORE_MCP_LOGIN_KEY', 'mcp-login-1');
    vi.stubEnv('STORE_MCP_AUTH_TOKEN', 'mcp-token-1');
    const server = fakeToolServer({ tools: storeTools, handle: echo });
    const tools = new StoreTools({ fetch: server.fetch });
    await tools.getProduct({ id: 1 });
    expect(server.requests.at(-1)?.headers.get('x-login-key')).toBe('rest-login-1');
    expect(server.requests.at(-1)?.headers.get('x-auth-token')).toBe('rest-token-1');
    await tools.close();
    vi.stubEnv('STORE_AUTH_TOKEN', '');
    expect(() => new StoreTools()).toThrow(
      'StoreTools needs STORE_AUTH_TOKEN too: the tool server takes STORE_LOGIN and STORE_AUTH_TOKEN',
    );
  });

  it('refuses to start without both credentials, naming what is missing and no value', () => {
    vi.stubEnv('STORE_LOGIN', '');
    vi.stubEnv('STORE_AUTH_TOKEN', '');
    vi.stubEnv('STORE_MCP_LOGIN_KEY', '');
    vi.stubEnv('STORE_MCP_AUTH_TOKEN', '');
    expect(() => new StoreTools()).toThrow(MissingCredentialsError);
    expect(() => new StoreTools()).toThrow(
      'StoreTools needs credentials: pass `loginKey` and `authToken`; or set STORE_LOGIN and STORE_AUTH_TOKEN, or STORE_MCP_LOGIN_KEY and STORE_MCP_AUTH_TOKEN',
    );
    vi.stubEnv('STORE_MCP_AUTH_TOKEN', 'env-auth-token-2');
    expect(() => new StoreTools()).toThrow(
      'StoreTools needs STORE_MCP_LOGIN_KEY too: the tool server takes STORE_MCP_LOGIN_KEY and STORE_MCP_AUTH_TOKEN',
    );
    const attempt = () => new StoreTools({ loginKey: 'only-the-login-key-3' });
    expect(attempt).toThrow(/^StoreTools needs authToken too: /);
    expect(attempt).not.toThrow(/only-the-login-key-3|env-auth-token-2/);
  });

  it('stops invalid arguments before anything is sent, naming the field', async () => {
    const server = fakeToolServer({ tools: storeTools, handle: echo });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const cases: [() => Promise<unknown>, string, string][] = [
      // @ts-expect-error limit is a number
      [() => tools.listProducts({ limit: '5' }), 'arguments.limit', 'must be an integer'],
      [() => tools.listProducts({ limit: 500 }), 'arguments.limit', 'must be at most 100'],
      // @ts-expect-error id is required
      [() => tools.getProduct({}), 'arguments.id', 'is required'],
      [
        // @ts-expect-error not an order status
        () => tools.updateOrder({ id: 1, status: 'lost' }),
        'arguments.status',
        'must be one of "pending_payment", "paid", "canceled", "abandoned"',
      ],
      [
        () => tools.createProduct({ name: 'Mug', price: 9, images: [{ url: 'not a uri' }] }),
        'arguments.images[0].url',
        'must be an absolute URI',
      ],
      // @ts-expect-error get_store_info takes no arguments
      [() => tools.getStoreInfo({ verbose: true }), 'arguments.verbose', 'is not a known property'],
    ];
    for (const [call, field, reason] of cases) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ field, reason });
    }
    expect((await tools.listProducts({ limit: 500 }).catch((e: Error) => e)).message).toBe(
      'Invalid request for list_products: arguments.limit must be at most 100',
    );
    expect(server.requests).toEqual([]);
  });

  it('turns an isError result into a ToolError with the content, masking credentials the server echoed', async () => {
    const server = fakeToolServer({
      tools: storeTools,
      handle: (_name, _args, headers) =>
        textResult(`Product 99 not found (token ${headers.get('x-auth-token')})`, true),
    });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const error = await tools.getProduct({ id: 99 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ operation: 'get_product', code: undefined });
    expect((error as ToolError).message).toBe(
      'Tool get_product reported an error: Product 99 not found (token [REDACTED])',
    );
    expect((error as ToolError).content).toEqual([{ type: 'text', text: 'Product 99 not found (token [REDACTED])' }]);
    expect(everythingIn(error)).not.toContain(CANARY.authToken);
    await tools.close();
  });

  it('turns a JSON-RPC error into a ToolError with its code', async () => {
    const server = fakeToolServer({
      tools: storeTools,
      handle: (name) => {
        throw new McpError(ErrorCode.InvalidParams, `${name}: category 5 does not exist`, { field: 'parent_id' });
      },
    });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const error = await tools.createCategory({ name: 'Mugs', parent_id: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ operation: 'create_category', code: -32602, data: { field: 'parent_id' } });
    expect((error as Error).message).toBe(
      'create_category was refused by the server (JSON-RPC -32602): create_category: category 5 does not exist',
    );
    await tools.close();
  });

  it('maps an HTTP 401 to AuthenticationError, with the credential headers masked', async () => {
    const server = fakeToolServer({
      tools: storeTools,
      handle: echo,
      intercept: () =>
        new Response(JSON.stringify({ error: `bad token ${CANARY.authToken}` }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        }),
    });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const error = await tools.listOrders().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, operation: 'initialize', route: 'POST /' });
    expect((error as AuthenticationError).request.headers['x-auth-token']).toBe('[REDACTED]');
    expect((error as AuthenticationError).request.headers['x-login-key']).toBe('[REDACTED]');
    expect(everythingIn(error)).not.toContain(CANARY.authToken);
    expect(everythingIn(error)).not.toContain(CANARY.loginKey);
  });

  it('maps a network failure to APIConnectionError without credentials in it or its cause', async () => {
    const fetch = (async () => {
      throw new TypeError(`connect ECONNREFUSED (sent ${CANARY.loginKey})`);
    }) as typeof globalThis.fetch;
    const tools = new StoreTools({ ...CANARY, fetch });
    const error = await tools.listPages().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'Connection error on initialize (POST /) to mcp.jumpseller.com:443: connect ECONNREFUSED (sent [REDACTED])',
    );
    expect(everythingIn(error)).not.toContain(CANARY.loginKey);
  });

  it('times out a slow call, and stops an aborted one', async () => {
    const server = fakeToolServer({
      tools: storeTools,
      handle: async (name, args) => {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        return echo(name, args);
      },
    });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch, timeout: 5_000 });
    // Connected first: a call's timeout bounds its wait for the handshake too.
    await tools.listTools();
    const slow = await tools.listCustomers({}, { timeout: 50 }).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(APIConnectionTimeoutError);
    expect(slow).toMatchObject({ timeoutMs: 50, operation: 'list_customers' });
    const controller = new AbortController();
    const aborted = tools.searchCustomers({ query: 'ada' }, { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 20);
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
    await tools.close();
  });

  it("ends a call at its own timeout while the session's initialize is unanswered, and leaves it to the others", async () => {
    const server = fakeToolServer({ tools: storeTools, handle: echo, format: 'json' });
    const initialize = heldInitialize(server.fetch);
    // The client's timeout is long: a call that waited on the shared connect would outlast the test.
    const tools = new StoreTools({ ...CANARY, fetch: initialize.fetch, timeout: 600_000 });
    const short = tools.getStoreInfo({}, { timeout: 200 }).catch((e: unknown) => e);
    const patient = tools.listCategories();
    const error = await short;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200, operation: 'initialize' });
    initialize.release();
    expect(await patient).toMatchObject({ data: { name: 'list_categories' } });
    expect(server.methods().filter((m) => m === 'initialize')).toHaveLength(1);
    await tools.close();
  });

  it('ends a call at its signal while initialize is unanswered; close() ends the connect for the rest', async () => {
    const server = fakeToolServer({ tools: storeTools, handle: echo, format: 'json' });
    const initialize = heldInitialize(server.fetch);
    const tools = new StoreTools({ ...CANARY, fetch: initialize.fetch, timeout: 600_000 });
    const controller = new AbortController();
    const aborted = tools.getStoreInfo({}, { signal: controller.signal }).catch((e: unknown) => e);
    const waiting = tools.listCategories().catch((e: unknown) => e);
    await initialize.sent;
    controller.abort();
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
    await tools.close();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    expect(await tools.getStoreInfo({}, { signal: controller.signal }).catch((e: unknown) => e)).toBeInstanceOf(
      APIUserAbortError,
    );
  });

  it('lists the server tools across pages', async () => {
    const server = fakeToolServer({ tools: storeTools, handle: echo, pageSize: 7 });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const listed = await tools.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(storeTools.map((tool) => tool.name));
    expect(server.methods().filter((m) => m === 'tools/list')).toHaveLength(3);
    await tools.close();
  });
});

describe('DirectoryTools', () => {
  it('needs the server URL from the options or DIRECTORY_MCP_URL', () => {
    vi.stubEnv('DIRECTORY_MCP_URL', '');
    expect(() => new DirectoryTools()).toThrow(
      "DirectoryTools needs the tool server's URL: pass { url } or set DIRECTORY_MCP_URL " +
        '(the directory does not publish its address)',
    );
    vi.stubEnv('DIRECTORY_MCP_URL', 'http://127.0.0.1:8124/mcp');
    expect(new DirectoryTools().url).toBe('http://127.0.0.1:8124/mcp');
    expect(new DirectoryTools({ url: 'http://127.0.0.1:8125/' }).url).toBe('http://127.0.0.1:8125/');
  });

  it('searches with typed arguments, sending no credential header', async () => {
    const server = fakeToolServer({ tools: directoryTools, handle: echo });
    const tools = new DirectoryTools({ url: 'http://127.0.0.1:8124/mcp', fetch: server.fetch });
    const result = await tools.searchSkills({ query: 'pdf', source: 'community', limit: 3 });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      name: 'search_skills',
      args: { query: 'pdf', source: 'community', limit: 3 },
    });
    const call = server.requests.at(-1);
    expect([...(call?.headers.keys() ?? [])].filter((name) => /key|token|auth/i.test(name))).toEqual([]);
    const tooMany = await tools.searchMcpServers({ query: 'git', limit: 26 }).catch((e: unknown) => e);
    expect(tooMany).toMatchObject({
      name: 'RequestValidationError',
      field: 'arguments.limit',
      reason: 'must be at most 25',
    });
    const empty = await tools.searchPlugins({ query: '' }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ field: 'arguments.query', reason: 'must be at least 1 character long' });
    await tools.close();
  });
});

describe('tool results as JSON', () => {
  it('reads the JSON of a text result into data, and leaves data undefined for prose', async () => {
    const server = fakeToolServer({
      tools: storeTools,
      handle: (name, args) => (name === 'delete_page' ? textResult('Page deleted.') : echo(name, args)),
    });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const listed = await tools.listProducts({ limit: 5 });
    expect(listed.data).toEqual({ name: 'list_products', args: { limit: 5 } });
    expect((await tools.deletePage({ id: 3 })).data).toBeUndefined();
  });

  const counter: Tool = {
    name: 'count_items',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: { type: 'object', properties: { count: { type: 'integer', minimum: 0 } }, required: ['count'] },
  };

  class CounterTools extends ToolServerClient<'count_items'> {
    countItems() {
      return this.callToolForData<{ count: number }>('count_items', {});
    }
  }

  function counterTools(structuredContent: Record<string, unknown> | undefined, validateResponses: boolean) {
    const server = fakeToolServer({
      tools: [counter],
      handle: () => ({
        content: [{ type: 'text', text: 'counted' }],
        ...(structuredContent ? { structuredContent } : {}),
      }),
    });
    return new CounterTools(
      { url: 'https://tools.test/mcp', headers: {}, fetch: server.fetch, validateResponses },
      { count_items: counter.inputSchema },
      { count_items: counter.outputSchema },
    );
  }

  it('takes structured content as data, typed from the output schema', async () => {
    const result = await counterTools({ count: 4 }, true).countItems();
    expect(result.data).toEqual({ count: 4 });
    expectTypeOf(result.data).toEqualTypeOf<{ count: number }>();
  });

  it('validates structured content against the output schema when validateResponses is on', async () => {
    const wrong = await counterTools({ count: -1 }, true)
      .countItems()
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(ResponseValidationError);
    expect(String(wrong)).toContain('count_items');
    await expect(counterTools(undefined, true).countItems()).rejects.toBeInstanceOf(ResponseValidationError);
    expect((await counterTools({ count: -1 }, false).countItems()).data).toEqual({ count: -1 });
  });
});

describe('listTools against a hostile pager', () => {
  it('stops when a cursor comes back', async () => {
    const server = fakeToolServer({ tools: storeTools, handle: echo, nextCursor: (cursor) => (cursor ? 'b' : 'a') });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    await expect(tools.listTools()).rejects.toThrow(ToolError);
    expect(server.methods().filter((method) => method === 'tools/list')).toHaveLength(3);
  });

  it(`stops after ${MAX_TOOL_LIST_PAGES} pages of ever new cursors`, async () => {
    let next = 0;
    const server = fakeToolServer({ tools: storeTools, handle: echo, nextCursor: () => String(++next) });
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    const error = await tools.listTools().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect(String(error)).toContain(`within ${MAX_TOOL_LIST_PAGES} pages`);
    expect(next).toBe(MAX_TOOL_LIST_PAGES);
  });
});
