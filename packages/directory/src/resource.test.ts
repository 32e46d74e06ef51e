import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, type McpServerListItem, RequestValidationError } from './index.js';
import { listPageOf, mcpServerEntry, sentUrls, testClient } from './test-support.js';

/** A list endpoint over `records`; `total` overrides the count it reports. */
function listingOf<T>(records: readonly T[], total?: number) {
  return fetchStub((request) => jsonResponse(listPageOf(records, request.url, total)));
}

const servers = Array.from({ length: 7 }, (_, index) => mcpServerEntry(index + 1));

describe('DirectoryResource.list (pagination)', () => {
  it('yields every record of three pages once, in order, requesting each page once', async () => {
    const fetch = listingOf(servers);
    const client = testClient(fetch);

    const seen = [];
    for await (const server of client.mcpServers.list({ limit: 3 })) seen.push(server);

    expect(seen).toEqual(servers);
    expect(sentUrls(fetch)).toEqual([
      '/api/mcp?limit=3&offset=0',
      '/api/mcp?limit=3&offset=3',
      '/api/mcp?limit=3&offset=6',
    ]);
  });

  it('stops once total records are seen, without asking for the empty page after them', async () => {
    const fetch = listingOf(servers.slice(0, 6));
    const client = testClient(fetch);

    const pages = [];
    for await (const page of client.mcpServers.list({ limit: 3 }).pages()) pages.push(page);

    expect(pages.map((page) => page.results.map((server) => server.repo))).toEqual([
      ['repo-1', 'repo-2', 'repo-3'],
      ['repo-4', 'repo-5', 'repo-6'],
    ]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('stops on a page shorter than the page size even when total promises more', async () => {
    const fetch = listingOf(servers.slice(0, 5), 40);
    const client = testClient(fetch);

    const all = await client.mcpServers.list({ limit: 3 }).toArray({ max: 100 });

    expect(all).toEqual(servers.slice(0, 5));
    expect(sentUrls(fetch)).toEqual(['/api/mcp?limit=3&offset=0', '/api/mcp?limit=3&offset=3']);
  });

  it('toArray returns at most max records and requests no page beyond the one that reached it', async () => {
    const fetch = listingOf(servers);
    const client = testClient(fetch);

    const firstFour = await client.mcpServers.list({ limit: 3 }).toArray({ max: 4 });

    expect(firstFour).toEqual(servers.slice(0, 4));
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('toArray refuses to run without a max, before any request', async () => {
    const fetch = listingOf(servers);
    const client = testClient(fetch);

    // @ts-expect-error max is required
    await expect(client.mcpServers.list().toArray({})).rejects.toThrow(/max/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('starts at the offset given in the filters', async () => {
    const fetch = listingOf(servers);
    const client = testClient(fetch);

    const rest = await client.mcpServers.list({ limit: 3, offset: 5 }).toArray({ max: 10 });

    expect(rest).toEqual(servers.slice(5));
    expect(sentUrls(fetch)).toEqual(['/api/mcp?limit=3&offset=5']);
  });

  it('sends each dataset its own filters', async () => {
    const fetch = listingOf([]);
    const client = testClient(fetch);

    await client.mcpServers.list({ q: 'git', category: 'Developer Tools', official: true }).toArray({ max: 1 });
    await client.plugins.list({ ecosystem: 'claude-code', limit: 50 }).toArray({ max: 1 });
    await client.skills.list({ source: 'community', q: 'pdf' }).toArray({ max: 1 });

    expect(sentUrls(fetch)).toEqual([
      '/api/mcp?q=git&category=Developer%20Tools&official=true&offset=0',
      '/api/plugins?ecosystem=claude-code&limit=50&offset=0',
      '/api/skills?source=community&q=pdf&offset=0',
    ]);
  });

  it('refuses an out-of-range page size or an unknown skill source without sending anything', async () => {
    const fetch = listingOf(servers);
    const client = testClient(fetch);

    await expect(client.plugins.list({ limit: 101 }).toArray({ max: 1 })).rejects.toMatchObject({
      constructor: RequestValidationError,
      operation: 'listPlugins',
      field: 'query.limit',
    });
    // @ts-expect-error not a source the spec knows
    await expect(client.skills.list({ source: 'vendor' }).toArray({ max: 1 })).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'query.source',
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('stops with APIUserAbortError when the signal fires between pages', async () => {
    const fetch = listingOf(servers);
    const client = testClient(fetch);
    const controller = new AbortController();

    const seen: McpServerListItem[] = [];
    const iterate = async () => {
      for await (const server of client.mcpServers.list({ limit: 3 }, { signal: controller.signal })) {
        seen.push(server);
        if (seen.length === 3) controller.abort();
      }
    };

    await expect(iterate()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(3);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
