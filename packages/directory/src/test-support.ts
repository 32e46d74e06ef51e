/** Fixtures for the package's tests (not part of the build); the fetch fakes come from @agent-apis/test-utils. */
import { sentRequests } from '@agent-apis/test-utils/fetch';
import type { Mock } from 'vitest';
import { DirectoryClient, type DirectoryClientOptions } from './client.js';
import type { McpServerListItem, SearchResponse } from './gen/types.gen.js';

export const BASE_URL = 'https://directory.test';

/** Path and query of every request a stub received, e.g. `/api/mcp?limit=3&offset=0`. */
export function sentUrls(fetchMock: Mock<typeof fetch>): string[] {
  return sentRequests(fetchMock).map((request) => {
    const url = new URL(request.url);
    return `${url.pathname}${url.search}`;
  });
}

/** A client of {@link BASE_URL} sending through `fetchMock`. */
export function testClient(fetchMock: typeof fetch, options: DirectoryClientOptions = {}): DirectoryClient {
  return new DirectoryClient({ baseUrl: BASE_URL, fetch: fetchMock, ...options });
}

/** The list envelope a list endpoint over `records` answers `url` with, honouring `offset` and `limit` (default 20). */
export function listPageOf<T>(records: readonly T[], url: string | URL, total = records.length) {
  const query = new URL(url).searchParams;
  const offset = Number(query.get('offset') ?? 0);
  const limit = Number(query.get('limit') ?? 20);
  const results = records.slice(offset, offset + limit);
  return { count: results.length, total, limit, offset, results };
}

/** Tool server list entry number `n`. */
export function mcpServerEntry(n: number): McpServerListItem {
  return {
    owner: `owner-${n}`,
    repo: `repo-${n}`,
    title: `Server ${n}`,
    category: 'developer-tools',
    official: n % 2 === 0,
    tags: ['git'],
    stars: 1_000 - n,
    transport: 'stdio',
    url: `${BASE_URL}/mcp/owner-${n}/repo-${n}`,
  };
}

/** A search answer with one tool server, GitHub's, listed at `url`. */
export function githubSearchResult(url: string): SearchResponse {
  return {
    query: 'github',
    type: 'mcp',
    count: 1,
    results: [
      {
        type: 'mcp_server',
        name: 'GitHub',
        description: 'Issues and pull requests',
        url,
        category: 'developer-tools',
        popularity: 9_000,
      },
    ],
  };
}
