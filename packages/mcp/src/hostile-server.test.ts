/*
 * The tool clients against a hostile tool server: answers too large or endless (JSON and event streams), output
 * schemas in tools/list built to freeze a validator, and credentials or URLs built to leak into raw errors.
 */
import {
  AgentApiError,
  APIConnectionTimeoutError,
  InvalidBaseUrlError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '@agent-apis/core';
import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { everythingIn } from '@agent-apis/test-utils/errors';
import { CANARY, fakeToolServer, textResult } from '@agent-apis/test-utils/mcp-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DirectoryTools } from './directory.js';
import { StoreTools } from './store.js';
import { ToolServerClient } from './tool-client.js';

const storeTools = (await readSyncedToolList('store')).list.tools as Tool[];
const MiB = 1024 * 1024;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** An event stream that never ends: an SSE comment every 10 ms, or one event's data without its closing blank line. */
function endlessStream(kind: 'comments' | 'unterminated') {
  const state = { sent: 0, cancelled: false };
  const encoder = new TextEncoder();
  const chunk = encoder.encode('a'.repeat(64 * 1024));
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (kind === 'unterminated') controller.enqueue(encoder.encode('event: message\ndata: '));
      else timer = setInterval(() => controller.enqueue(encoder.encode(': still here\n\n')), 10);
    },
    pull(controller) {
      if (kind !== 'unterminated') return;
      state.sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
      clearInterval(timer);
    },
  });
  const response = () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  return { state, response };
}

/** A store tool server whose tool calls are answered by `answer` at the HTTP level. */
function interceptingCalls(answer: () => Response) {
  const server = fakeToolServer({
    tools: storeTools,
    handle: () => textResult('ok'),
    intercept: () => (server.requests.at(-1)?.message?.method === 'tools/call' ? answer() : undefined),
  });
  return server;
}

describe('answers too large', () => {
  it('cuts a JSON tool result at 8 MiB by default, and at maxResponseBytes when set', async () => {
    const big = 'x'.repeat(9 * MiB);
    const server = fakeToolServer({ tools: storeTools, handle: () => textResult(big), format: 'json' });
    const capped = new StoreTools({ ...CANARY, fetch: server.fetch });
    const error = await capped.getStoreInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ maxBytes: 8 * MiB });
    const roomy = new StoreTools({ ...CANARY, fetch: server.fetch, maxResponseBytes: 16 * MiB });
    expect((await roomy.getStoreInfo()).content).toEqual([{ type: 'text', text: big }]);
    await Promise.all([capped.close(), roomy.close()]);
  });

  it('cuts an unterminated SSE event at the cap and stops reading it', async () => {
    const stream = endlessStream('unterminated');
    const server = interceptingCalls(stream.response);
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch, maxResponseBytes: MiB, timeout: 20_000 });
    const error = await tools.getStoreInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await vi.waitFor(() => expect(stream.state.cancelled).toBe(true));
    expect(stream.state.sent).toBeLessThan(2 * MiB);
    await tools.close();
  });

  it('refuses an answer that announces more than the cap before reading it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const server = interceptingCalls(
      () => new Response(body, { headers: { 'content-type': 'application/json', 'content-length': String(64 * MiB) } }),
    );
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    await expect(tools.getStoreInfo()).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(pulled).toBeLessThan(3);
    await tools.close();
  });

  it('cuts an error answer (HTTP 500) at maxResponseBytes too, pulling at most the cap and one chunk', async () => {
    const state = { pulled: 0, cancelled: false };
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    // Finite (32 MiB against a cap of 1 MiB), so that a client that reads it whole still ends; pulled only when
    // read (no chunk queued ahead), so that `pulled` counts what the client asked for.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (state.pulled >= 32 * MiB) return controller.close();
          state.pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
        cancel() {
          state.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const server = interceptingCalls(
      () => new Response(body, { status: 500, headers: { 'content-type': 'text/plain' } }),
    );
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch, maxResponseBytes: MiB });
    const error = await tools.getStoreInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ maxBytes: MiB });
    expect(state.pulled).toBeLessThanOrEqual(MiB + chunk.byteLength);
    expect(state.cancelled).toBe(true);
    await tools.close();
  });

  it('refuses a bad maxResponseBytes with a typed error', () => {
    expect(() => new StoreTools({ ...CANARY, maxResponseBytes: -1 })).toThrow(AgentApiError);
  });
});

describe('answers that never end', () => {
  it("ends an endless SSE stream at the call's timeout, before close()", async () => {
    const stream = endlessStream('comments');
    const server = interceptingCalls(stream.response);
    const tools = new StoreTools({ ...CANARY, fetch: server.fetch });
    // Connected first: a call's timeout bounds its wait for the handshake too.
    await tools.listTools();
    const error = await tools.listOrders({}, { timeout: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    await vi.waitFor(() => expect(stream.state.cancelled).toBe(true), { timeout: 1_000 });
    await tools.close();
  });
});

describe('error answers that never end', () => {
  it("stop being read at the call's timeout, even through a fetch that ignores signals", async () => {
    const state = { cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"message":"')),
      pull: () => new Promise(() => undefined),
      cancel() {
        state.cancelled = true;
      },
    });
    const server = interceptingCalls(() => new Response(body, { status: 502 }));
    const ignoresSignals = ((input: string | URL | Request, init?: RequestInit) =>
      server.fetch(input, { ...init, signal: null })) as typeof globalThis.fetch;
    const tools = new StoreTools({ ...CANARY, fetch: ignoresSignals, timeout: 600_000 });
    // Connected first: a call's timeout bounds its wait for the handshake too.
    await tools.listTools();
    const error = await tools.getStoreInfo({}, { timeout: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    // The read is cancelled as the call ends, not some time later.
    expect(state.cancelled).toBe(true);
    await tools.close();
  });
});

describe('a fetch that ignores signals', () => {
  it("cannot hold the session's handshake: close() ends it, and the next call connects again", async () => {
    const server = fakeToolServer({ tools: storeTools, handle: () => textResult('ok'), format: 'json' });
    let stalling = true;
    // While `stalling`, never answers `notifications/initialized` (the handshake's last step), nor heeds its signal.
    const stalls = (async (input: string | URL | Request, init?: RequestInit) => {
      if (stalling && String(init?.body).includes('notifications/initialized')) return new Promise(() => undefined);
      return server.fetch(input, init);
    }) as typeof globalThis.fetch;
    const tools = new StoreTools({ ...CANARY, fetch: stalls, timeout: 600_000 });
    expect(await tools.getStoreInfo({}, { timeout: 200 }).catch((e: unknown) => e)).toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    // close() waits for the handshake in progress: it ends only if the stalled send is let go.
    await tools.close();
    stalling = false;
    expect((await tools.getStoreInfo()).content).toEqual([{ type: 'text', text: 'ok' }]);
    await tools.close();
  });
});

describe('output schemas', () => {
  const counter: Tool = {
    name: 'count_items',
    inputSchema: { type: 'object', properties: {} },
  };

  class CounterTools extends ToolServerClient<'count_items'> {
    countItems() {
      return this.callToolForData<unknown>('count_items', {});
    }
  }

  it('ignores the ones tools/list sends: no compiled pattern, no check, nothing kept per listTools()', async () => {
    const cacheToolMetadata = vi.spyOn(Client.prototype, 'cacheToolMetadata');
    const hostile: Tool = {
      ...counter,
      // Run on the result below, this pattern takes minutes; a schema the result breaks on every count.
      outputSchema: {
        type: 'object',
        properties: { code: { type: 'string', pattern: '^(a+)+$' }, count: { type: 'string' } },
        required: ['code', 'count', 'missing'],
      },
    };
    const server = fakeToolServer({
      tools: [hostile],
      handle: () => ({
        content: [{ type: 'text', text: 'counted' }],
        structuredContent: { code: `${'a'.repeat(40)}!`, count: 3 },
      }),
    });
    const tools = new CounterTools(
      { url: 'https://tools.test/mcp', headers: {}, fetch: server.fetch, validateResponses: true },
      { count_items: counter.inputSchema },
    );
    for (let i = 0; i < 20; i++) await tools.listTools();
    const result = await tools.countItems();
    expect(result.data).toEqual({ code: `${'a'.repeat(40)}!`, count: 3 });
    expect(cacheToolMetadata).not.toHaveBeenCalled();
    await tools.close();
  });

  it('checks results against the pinned ones only, and refuses a result of the wrong shape with a typed error', async () => {
    const server = fakeToolServer({
      tools: [counter],
      handle: () => ({ content: [{ type: 'text', text: 'counted' }], structuredContent: { count: -1 } }),
    });
    const tools = new CounterTools(
      { url: 'https://tools.test/mcp', headers: {}, fetch: server.fetch, validateResponses: true },
      { count_items: counter.inputSchema },
      { count_items: { type: 'object', properties: { count: { type: 'integer', minimum: 0 } } } },
    );
    await expect(tools.countItems()).rejects.toBeInstanceOf(ResponseValidationError);
    const malformed = interceptingCalls(() =>
      Response.json({ jsonrpc: '2.0', id: 1, result: { content: 'not a list' } }),
    );
    const store = new StoreTools({ ...CANARY, fetch: malformed.fetch });
    const error = await store.getStoreInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentApiError);
    await Promise.all([tools.close(), store.close()]);
  });
});

describe('credentials and URLs never leak', () => {
  it('refuses CR/LF in loginKey or authToken with a typed error that does not hold the key', () => {
    const secret = 'canary-secret-91ab';
    for (const options of [
      { loginKey: `${secret}\r\nX-Injected: 1`, authToken: CANARY.authToken },
      { loginKey: CANARY.loginKey, authToken: `${secret}\nX-Injected: 1` },
      { loginKey: CANARY.loginKey, authToken: `${secret}\0` },
    ]) {
      const error = (() => {
        try {
          new StoreTools(options);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(AgentApiError);
      expect(everythingIn(error)).not.toContain(secret);
    }
    vi.stubEnv('STORE_LOGIN', `${secret}\rX: 1`);
    vi.stubEnv('STORE_AUTH_TOKEN', CANARY.authToken);
    expect(() => new StoreTools()).toThrow('StoreTools STORE_LOGIN contains a line break');
  });

  it('refuses a header no request can carry given to the generic client, naming the header only', () => {
    const attempt = () =>
      new ToolServerClient({ url: 'https://tools.test/mcp', headers: { 'x-api-key': 'canary-key-7\r\nA: b' } }, {});
    expect(attempt).toThrow(AgentApiError);
    expect(attempt).toThrow('header x-api-key');
    expect(attempt).not.toThrow(/canary-key-7/);
  });

  it('refuses a tool server URL with a password, without quoting it', () => {
    const password = 'hunter2-canary-pass';
    for (const attempt of [
      () => new StoreTools({ ...CANARY, url: `https://shop:${password}@mcp.example.com/` }),
      () => new DirectoryTools({ url: `http://user:${password}@127.0.0.1:9/mcp` }),
      () => new DirectoryTools({ url: `not a url ${password}@` }),
    ]) {
      const error = (() => {
        try {
          attempt();
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(InvalidBaseUrlError);
      expect(everythingIn(error)).not.toContain(password);
    }
    vi.stubEnv('STORE_MCP_URL', `https://shop:${password}@mcp.example.com/`);
    expect(() => new StoreTools({ ...CANARY })).toThrow(InvalidBaseUrlError);
  });
});
