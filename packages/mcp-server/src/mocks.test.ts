/**
 * Every tool of the server called through the MCP SDK client, over streamable HTTP on loopback, against the
 * stand-ins of the three APIs; the store's credentials and trust's key come per session, in the initialize request's
 * headers. Every store read is also called through store_call_operation.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from './answer.js';
import { OPERATIONS } from './catalog.js';
import { CREDENTIAL_HEADERS, type RunningHttpServer, startHttpServer } from './http.js';
import { connect, type Mocks, sampleValue, startMocks, textOf } from './test-support.js';

let mocks: Mocks;
let server: RunningHttpServer;
let client: Client;

beforeAll(async () => {
  mocks = await startMocks();
  // No credentials in the server's options: they arrive with the session.
  server = await startHttpServer({
    directory: mocks.options.directory,
    store: { baseUrl: mocks.store.url },
    trust: { baseUrl: mocks.trust.url },
    maxAnswerBytes: 8000,
  });
  client = new Client({ name: 'mocks-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: {
        headers: {
          [CREDENTIAL_HEADERS.storeLogin]: mocks.credentials.login,
          [CREDENTIAL_HEADERS.storeAuthToken]: mocks.credentials.authToken,
          [CREDENTIAL_HEADERS.trustApiKey]: mocks.credentials.apiKey,
        },
      },
    }),
  );
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await mocks?.close();
});

/** Arguments for every tool of the default server (a tool missing here fails the first test). */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  directory_search: { q: 'weather' },
  directory_list_mcp_servers: { limit: 2, fields: ['results.owner', 'results.repo'] },
  directory_get_mcp_server: { owner: 'acme-labs', repo: 'weather-mcp' },
  directory_list_plugins: { limit: 2 },
  directory_get_plugin: { marketplace: 'tooling-hub', plugin: 'lint-helper' },
  directory_list_skills: { limit: 2 },
  directory_get_skill: { slug: 'csv-cleanup' },
  directory_get_categories: {},
  directory_get_stats: {},
  directory_get_open_api_document: {},
  directory_get_llms_txt: {},
  trust_decide: { body: { target: { type: 'domain', value: 'example.com' } } },
  trust_decide_batch: { body: { requests: [{ target: { type: 'domain', value: 'example.org' } }] } },
  trust_score_domain: { body: { input: 'example.net' } },
  trust_score_domain_batch: { body: { domains: ['example.com'] } },
  store_search_operations: { query: 'list products' },
  store_call_operation: { operationId: 'listProducts', fields: ['product.id', 'product.name'] },
};

describe('every tool through the SDK client against the stand-ins', () => {
  it('lists exactly the tools the examples cover, plus answer_more', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...Object.keys(EXAMPLES), 'answer_more'].sort());
  });

  it.each(Object.entries(EXAMPLES))('%s answers', async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    const answer = result.structuredContent as { data?: unknown; part?: string };
    expect(answer.data ?? answer.part).toBeDefined();
  });

  it('answer_more pages an answer over the cap, by records and by parts', async () => {
    const small = await connect({ ...mocks.options, maxAnswerBytes: 600 });
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await small.client.callTool({ name, arguments: args })).structuredContent as Answer;
      const pages = [await call('directory_get_open_api_document', {})];
      expect(pages[0]?.cursor).toEqual(expect.any(String));
      while (pages.at(-1)?.cursor) pages.push(await call('answer_more', { cursor: pages.at(-1)?.cursor }));
      expect(JSON.parse(pages.map((page) => page.part).join(''))).toMatchObject({ openapi: expect.any(String) });
      const listing = [await call('store_call_operation', { operationId: 'listProducts' })];
      expect(listing[0]?.cursor).toEqual(expect.any(String));
      while (listing.at(-1)?.cursor) listing.push(await call('answer_more', { cursor: listing.at(-1)?.cursor }));
      const whole = await small.client.callTool({
        name: 'store_call_operation',
        arguments: { operationId: 'listProducts', fields: ['product.id'] },
      });
      const ids = (whole.structuredContent as { data: { product: { id: number } }[] }).data.map(
        (entry) => entry.product.id,
      );
      expect(
        listing.flatMap((page) => (page.data as { product: { id: number } }[]).map((entry) => entry.product.id)),
      ).toEqual(ids);
    } finally {
      await small.close();
    }
  });

  it('selects fields from the directory and the store', async () => {
    const listing = await client.callTool({
      name: 'directory_list_mcp_servers',
      arguments: EXAMPLES.directory_list_mcp_servers,
    });
    const results = (listing.structuredContent as { data: { results: object[] } }).data.results;
    expect(results.length).toBeGreaterThan(0);
    for (const entry of results) expect(Object.keys(entry).sort()).toEqual(['owner', 'repo']);
  });

  it('sends every store read through store_call_operation', async () => {
    const reads = OPERATIONS.store.filter((operation) => operation.safety === 'read');
    const unsent: string[] = [];
    for (const operation of reads) {
      const args = sampleValue(operation.inputSchema) as Record<string, unknown>;
      const result = await client.callTool({
        name: 'store_call_operation',
        arguments: { operationId: operation.id, arguments: args },
      });
      // An API answer (data, or a 4xx for a sampled id) is fine; a refusal or an argument problem is not.
      if (/^(Refused|Not sent)/.test(textOf(result))) unsent.push(`${operation.id}: ${textOf(result)}`);
    }
    expect(unsent).toEqual([]);
    const reached = new Set(mocks.store.requests.map((request) => request.operation));
    expect(reads.filter((operation) => !reached.has(operation.id)).map((operation) => operation.id)).toEqual([]);
    expect(mocks.store.tooManyRequests).toBe(0);
  }, 120_000);
});
