/**
 * The HTTP transport under a hostile or careless peer: a flood of `initialize`, a slow or huge body, a foreign
 * Origin, no token; and one session reading another's held answers.
 */
import { connect as netConnect } from 'node:net';
import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Answer } from './answer.js';
import { type HttpServerOptions, type RunningHttpServer, startHttpServer, TOKEN_ENV_VAR } from './http.js';
import { INITIALIZE_REQUEST, textOf } from './test-support.js';

let server: RunningHttpServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server?.close();
  server = undefined;
});

const initialize = INITIALIZE_REQUEST;
const accept = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function start(options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  server = await startHttpServer(options);
  return server;
}

async function client(headers: Record<string, string> = {}): Promise<Client> {
  const sdk = new Client({ name: 'live', version: '1' });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(server!.url), { requestInit: { headers } }));
  clients.push(sdk);
  return sdk;
}

const post = (body: object, headers: Record<string, string> = {}) =>
  fetch(server!.url, { method: 'POST', headers: { ...accept, ...headers }, body: JSON.stringify(body) });

describe('sessions', () => {
  it('never closes a live session to admit new ones: a flood of initialize is refused', async () => {
    await start({ maxSessions: 10, maxSessionsPerPeer: 10 });
    const live = await client();
    await live.listTools();
    const statuses = await Promise.all(Array.from({ length: 100 }, () => post(initialize).then((r) => r.status)));
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(9);
    expect(statuses.filter((status) => status === 503 || status === 429).length).toBeGreaterThanOrEqual(91);
    expect((await live.listTools()).tools.length).toBeGreaterThan(5);
  });

  it('closes the session idle longest to admit a new one, not the oldest', async () => {
    await start({ maxSessions: 2, maxSessionsPerPeer: 2, sessionIdleMs: 0 });
    const first = await client();
    const second = await client();
    await first.listTools();
    await client();
    // The session idle longest (the second: the first was used since) went to admit the third, not the oldest.
    await expect(second.listTools()).rejects.toThrow();
    expect((await first.listTools()).tools.length).toBeGreaterThan(5);
  });

  it('refuses a peer over its own cap while others have room', async () => {
    await start({ maxSessions: 50, maxSessionsPerPeer: 3 });
    const live = await Promise.all([client(), client(), client()]);
    const refused = await post(initialize);
    expect(refused.status).toBe(429);
    for (const session of live) expect((await session.listTools()).tools.length).toBeGreaterThan(5);
  });

  it('gives each session its own pager: a cursor of one session is unknown to another', async () => {
    const products = Array.from({ length: 80 }, (_, id) => ({ product: { id, name: `Product ${id}` } }));
    const fetch = fetchStub(() => jsonResponse(products));
    await start({
      store: { login: 'l-login', authToken: 'l-token-0123', baseUrl: 'http://127.0.0.1:9/v1', fetch },
      maxAnswerBytes: 1000,
    });
    const [one, other] = [await client(), await client()];
    const first = await one.callTool({
      name: 'store_call_operation',
      arguments: { operationId: 'listProducts' },
    });
    const cursor = (first.structuredContent as Answer).cursor;
    expect(cursor).toEqual(expect.any(String));
    const stolen = await other.callTool({ name: 'answer_more', arguments: { cursor } });
    expect(stolen.isError).toBe(true);
    expect(textOf(stolen)).toMatch(/Unknown or expired cursor/);
    const own = await one.callTool({ name: 'answer_more', arguments: { cursor } });
    expect(own.isError).toBeFalsy();
  });
});

describe('requests', () => {
  it('answers a body that is still arriving after the request timeout with 408 and closes it', async () => {
    await start({ requestTimeoutMs: 1000 });
    const { port } = new URL(server!.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"jsonrpc":`,
        );
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses a body over the cap with 413 before reading it', async () => {
    await start({ maxBodyBytes: 10_000 });
    const response = await post({ ...initialize, padding: 'p'.repeat(20_000) });
    expect(response.status).toBe(413);
    // Chunked, with no length to check first: refused once the cap is passed.
    const { request } = await import('node:http');
    const chunked = await new Promise<number>((resolve, reject) => {
      const sent = request(server!.url, { method: 'POST', headers: accept }, (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      });
      sent.on('error', reject);
      for (let i = 0; i < 20; i++) sent.write('p'.repeat(1000));
      sent.end();
    });
    expect(chunked).toBe(413);
  });

  it('refuses a foreign Origin; allows loopback origins and the allow-list', async () => {
    await start({ allowedOrigins: ['https://app.example'] });
    expect((await post(initialize, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(initialize, { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post(initialize, { origin: 'https://app.example' })).status).toBe(200);
    expect((await post(initialize, { origin: 'null' })).status).toBe(403);
  });
});

describe('the bearer token', () => {
  const token = 'mcp-bearer-0123456789abcdef';

  it('answers 401 without it or with a wrong one, and serves with it', async () => {
    await start({ token });
    expect((await post(initialize)).status).toBe(401);
    expect((await post(initialize, { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await post(initialize, { authorization: `Basic ${token}` })).status).toBe(401);
    const sdk = await client({ authorization: `Bearer ${token}` });
    expect((await sdk.listTools()).tools.length).toBeGreaterThan(5);
  });

  it('is required to listen beyond loopback, naming the variable', async () => {
    await expect(startHttpServer({ host: '0.0.0.0' })).rejects.toThrow(TOKEN_ENV_VAR);
  });
});
