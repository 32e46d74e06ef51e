import { fetchStub, hangingFetch, jsonResponse, sentRequests } from '@agent-apis/test-utils/fetch';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { operations } from './gen/operations.gen.js';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  type ApiPromise,
  BadRequestError,
  DirectoryClient,
  InternalServerError,
  type Logger,
  type McpServer,
  NotFoundError,
  RequestValidationError,
  ResponseValidationError,
  type SearchResponse,
  type Stats,
} from './index.js';
import { BASE_URL, githubSearchResult, mcpServerEntry, sentUrls, testClient } from './test-support.js';

const searchEnvelope = githubSearchResult(`${BASE_URL}/mcp/octo/github`);

const mcpServer: McpServer = {
  ...mcpServerEntry(1),
  installCommand: 'npx -y @octo/server',
  envVars: [{ name: 'GITHUB_TOKEN', required: true }],
  docsUrl: 'https://docs.test/octo',
};

const notFound = () => jsonResponse({ error: 'No such record' }, { status: 404 });

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (message: string) => {
    lines.push(message);
  };
  return { lines, debug: record, info: record, warn: record, error: record };
}

describe('DirectoryClient construction', () => {
  it('refuses to start without a base URL, naming both ways to give one', () => {
    vi.stubEnv('DIRECTORY_BASE_URL', undefined);
    expect(() => new DirectoryClient()).toThrow(/pass baseUrl or set DIRECTORY_BASE_URL/);
  });

  it('takes the base URL from DIRECTORY_BASE_URL, and prefers the baseUrl option', async () => {
    vi.stubEnv('DIRECTORY_BASE_URL', 'https://env.directory.test/base');
    const fetch = fetchStub(() => jsonResponse({ mcp: [], plugins: [], skills: [] }));

    await new DirectoryClient({ fetch }).categories();
    await new DirectoryClient({ fetch, baseUrl: BASE_URL }).categories();

    expect(sentRequests(fetch).map((request) => request.url)).toEqual([
      'https://env.directory.test/base/api/categories',
      `${BASE_URL}/api/categories`,
    ]);
  });

  it('sends per-call headers from get, list and search', async () => {
    const fetch = fetchStub((request) =>
      jsonResponse(new URL(request.url).pathname.endsWith('/search') ? searchEnvelope : mcpServer),
    );
    const client = testClient(fetch);
    await client.mcpServers.get({ owner: 'octo', repo: 'github' }, { headers: { 'x-trace': 'get' } });
    await client.search({ q: 'github' }, { headers: { 'x-trace': 'search' } });
    expect(sentRequests(fetch).map((request) => request.headers.get('x-trace'))).toEqual(['get', 'search']);
  });

  it('sends defaultHeaders with every request', async () => {
    const fetch = fetchStub(() => jsonResponse({ mcp: [], plugins: [], skills: [] }));
    await testClient(fetch, { defaultHeaders: { 'x-caller': 'agent-7' } }).categories();
    expect(sentRequests(fetch)[0]?.headers.get('x-caller')).toBe('agent-7');
  });
});

describe('DirectoryClient.api', () => {
  it('exposes every operation of the spec, bound to the configured client', async () => {
    const fetch = fetchStub(() => jsonResponse(mcpServer));
    const client = testClient(fetch);

    expect(Object.keys(client.api).sort()).toEqual(Object.keys(operations).sort());
    await expect(client.api.getMcpServer({ path: { owner: 'octo', repo: 'github' } })).resolves.toEqual(mcpServer);
    expect(sentUrls(fetch)).toEqual(['/api/mcp/octo/github']);
  });
});

describe('DirectoryClient.search', () => {
  it('sends q, type and limit and resolves to the search envelope', async () => {
    const fetch = fetchStub(() => jsonResponse(searchEnvelope));

    const result = await testClient(fetch).search({ q: 'github', type: 'mcp', limit: 25 });

    expect(result).toEqual(searchEnvelope);
    expect(sentUrls(fetch)).toEqual(['/api/search?q=github&type=mcp&limit=25']);
  });

  it.each([
    [{ q: 'github', limit: 26 }, 'query.limit'],
    [{ q: 'github', limit: 0 }, 'query.limit'],
    [{ q: 'github', limit: 2.5 }, 'query.limit'],
    [{ q: 'github', type: 'servers' }, 'query.type'],
    [{ type: 'mcp' }, 'query.q'],
  ])('refuses %o before sending, naming %s', async (params, field) => {
    const fetch = fetchStub(() => jsonResponse(searchEnvelope));
    // @ts-expect-error deliberately invalid parameters
    const call = testClient(fetch).search(params);
    await expect(call).rejects.toBeInstanceOf(RequestValidationError);
    await expect(call).rejects.toMatchObject({ operation: 'search', field });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('turns the service 400 into BadRequestError', async () => {
    const fetch = fetchStub(() => jsonResponse({ error: 'q is required' }, { status: 400 }));
    await expect(testClient(fetch).search({ q: ' ' })).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe('lookups and the other reads', () => {
  it.each([
    [
      'mcpServers',
      () => testClient(fetchStub(notFound)).mcpServers.get({ owner: 'octo', repo: 'gone' }),
      'getMcpServer',
    ],
    ['plugins', () => testClient(fetchStub(notFound)).plugins.get({ marketplace: 'm', plugin: 'gone' }), 'getPlugin'],
    ['skills', () => testClient(fetchStub(notFound)).skills.get({ slug: 'gone' }), 'getSkill'],
  ])('%s.get turns a 404 into NotFoundError naming the operation', async (_, get, operation) => {
    const error = await get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, operation, body: { error: 'No such record' } });
  });

  it('get sends the key as path segments and resolves to the record', async () => {
    const fetch = fetchStub(() => jsonResponse(mcpServer));
    const client = testClient(fetch);

    await expect(client.mcpServers.get({ owner: 'octo', repo: 'github' })).resolves.toEqual(mcpServer);
    await client.plugins.get({ marketplace: 'official', plugin: 'linter' });
    await client.skills.get({ slug: 'pdf-tools' });

    expect(sentUrls(fetch)).toEqual(['/api/mcp/octo/github', '/api/plugins/official/linter', '/api/skills/pdf-tools']);
  });

  it('get refuses an empty key before sending', async () => {
    const fetch = fetchStub(() => jsonResponse(mcpServer));
    await expect(testClient(fetch).skills.get({ slug: '' })).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'path.slug',
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('categories, stats, openapi and llmsTxt read their endpoints', async () => {
    const categories = { mcp: [{ name: 'developer-tools', count: 12 }], plugins: [], skills: [] };
    const stats = { personas: 1, skills: 2, bundles: 3, agents: 4, tools: 5, guides: 6 };
    const document = { openapi: '3.1.0', info: { title: 'Directory' }, paths: {} };
    const guide = '# Directory\nUse /api/search.';
    const bodies: Record<string, () => Response> = {
      '/api/categories': () => jsonResponse(categories),
      '/api/stats': () => jsonResponse(stats),
      '/api/openapi.json': () => jsonResponse(document),
      '/llms.txt': () => new Response(guide, { headers: { 'content-type': 'text/plain; charset=utf-8' } }),
    };
    const fetch = fetchStub((request) => bodies[new URL(request.url).pathname]?.() ?? notFound());
    const client = testClient(fetch);

    await expect(client.categories()).resolves.toEqual(categories);
    await expect(client.stats()).resolves.toEqual(stats);
    await expect(client.openapi()).resolves.toEqual(document);
    await expect(client.llmsTxt()).resolves.toBe(guide);
  });
});

describe('transport behaviour', () => {
  it('retries a GET answered with 503 and resolves with the retried answer', async () => {
    const answers = [
      jsonResponse({ error: 'busy' }, { status: 503, headers: { 'retry-after': '0' } }),
      jsonResponse(searchEnvelope),
    ];
    const fetch = fetchStub(() => answers.shift() ?? notFound());

    await expect(testClient(fetch).search({ q: 'github' })).resolves.toEqual(searchEnvelope);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('gives up after maxRetries and throws InternalServerError', async () => {
    const fetch = fetchStub(() => jsonResponse({ error: 'busy' }, { status: 503, headers: { 'retry-after': '0' } }));

    await expect(testClient(fetch, { maxRetries: 1 }).stats()).rejects.toBeInstanceOf(InternalServerError);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('throws APIConnectionTimeoutError when no answer comes within the timeout', async () => {
    const fetch = hangingFetch();
    await expect(testClient(fetch, { timeout: 5, maxRetries: 0 }).stats()).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
  });

  it('applies a per-call timeout over the client default', async () => {
    const fetch = hangingFetch();
    const call = testClient(fetch, { maxRetries: 0 }).search({ q: 'github' }, { timeout: 5 });
    await expect(call).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('throws APIUserAbortError when the caller aborts, and does not retry', async () => {
    const fetch = hangingFetch();
    const controller = new AbortController();

    const call = testClient(fetch).mcpServers.get({ owner: 'octo', repo: 'github' }, { signal: controller.signal });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    controller.abort();

    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('logs through the given logger at the given level, or at the level in AGENT_APIS_LOG', async () => {
    const answer = () => jsonResponse(searchEnvelope);
    const explicit = recordingLogger();
    const fromEnv = recordingLogger();
    const silent = recordingLogger();

    await testClient(fetchStub(answer), { logger: explicit, logLevel: 'debug' }).search({ q: 'github' });
    await testClient(fetchStub(answer), { logger: silent }).search({ q: 'github' });
    vi.stubEnv('AGENT_APIS_LOG', 'debug');
    await testClient(fetchStub(answer), { logger: fromEnv }).search({ q: 'github' });

    expect(explicit.lines.join('\n')).toContain(`GET ${BASE_URL}/api/search?q=github`);
    expect(fromEnv.lines.join('\n')).toContain('search');
    expect(silent.lines).toEqual([]);
  });
});

describe('validateResponses', () => {
  const malformed = { ...mcpServer, stars: 'many', envVars: 'none' };

  it('refuses a body that does not match the schema with ResponseValidationError', async () => {
    const fetch = fetchStub(() => jsonResponse(malformed));
    const client = testClient(fetch, { validateResponses: true });

    const error = await client.mcpServers.get({ owner: 'octo', repo: 'github' }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ operation: 'getMcpServer', status: 200 });
    expect((error as ResponseValidationError).issues.map((issue) => issue.path).sort()).toEqual(['envVars', 'stars']);
  });

  it('passes a well-formed body, and is off unless asked for', async () => {
    const valid = testClient(
      fetchStub(() => jsonResponse(mcpServer)),
      { validateResponses: true },
    );
    const unchecked = testClient(fetchStub(() => jsonResponse(malformed)));

    await expect(valid.mcpServers.get({ owner: 'octo', repo: 'github' })).resolves.toEqual(mcpServer);
    await expect(unchecked.mcpServers.get({ owner: 'octo', repo: 'github' })).resolves.toEqual(malformed);
  });
});

describe('one call surface', () => {
  it('every method returns a promise with .withResponse() and .asResponse(), typed', async () => {
    const fetch = fetchStub((request) =>
      new URL(request.url).pathname === '/api/stats'
        ? jsonResponse({ total: 3 }, { headers: { 'x-request-id': 'st1' } })
        : new URL(request.url).pathname === '/api/search'
          ? jsonResponse(searchEnvelope)
          : jsonResponse(mcpServer),
    );
    const client = testClient(fetch, { cache: false });
    expectTypeOf(client.stats()).toEqualTypeOf<ApiPromise<Stats>>();
    expectTypeOf(client.search({ q: 'x' }).withResponse())
      .resolves.toHaveProperty('data')
      .toEqualTypeOf<SearchResponse>();
    expectTypeOf(client.mcpServers.get({ owner: 'o', repo: 'r' }).asResponse()).resolves.toEqualTypeOf<Response>();
    const { data, response } = await client.stats().withResponse();
    expect(data).toEqual({ total: 3 });
    expect(response.headers.get('x-request-id')).toBe('st1');
    expect((await client.search({ q: 'github' }).withResponse()).data).toEqual(searchEnvelope);
    expect((await client.mcpServers.get({ owner: 'octo', repo: 'github' }).asResponse()).status).toBe(200);
    expect((await client.api.getStats().asResponse()).status).toBe(200);
  });
});
