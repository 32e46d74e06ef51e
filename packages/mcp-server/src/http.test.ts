import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from './http.js';
import { INITIALIZE_REQUEST } from './test-support.js';

let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const initialize = INITIALIZE_REQUEST;

describe('streamable HTTP', () => {
  it('listens on loopback by default, at /mcp', async () => {
    server = await startHttpServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await client.close();
  });

  it('refuses a Host that is not the listening address (DNS rebinding)', async () => {
    server = await startHttpServer();
    const port = new URL(server.url).port;
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const sent = request(
        server!.url,
        {
          method: 'POST',
          headers: {
            host: `evil.example:${port}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sent.on('error', reject);
      sent.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it('answers a request without a session that is not initialize with 400, an unknown session with 404', async () => {
    server = await startHttpServer();
    const post = (body: object, headers: Record<string, string> = {}) =>
      fetch(server!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 'nope' })).status).toBe(
      404,
    );
    expect((await fetch(server.url.replace('/mcp', '/other'))).status).toBe(404);
  });
});
