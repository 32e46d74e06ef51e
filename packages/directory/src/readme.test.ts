/**
 * The README's code is the files in `examples/`: this checks that every fenced example equals its file, and runs
 * each file against the package's own MSW handlers, checking what it prints.
 */
import { exampleNames, expectReadmeToEmbedEveryExample, runExample } from '@agent-apis/test-utils/readme';
import { faker } from '@faker-js/faker';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  getGetLlmsTxtMockHandler,
  getGetMcpServerMockHandler,
  getGetPluginMockHandler,
  getListMcpServersMockHandler,
  getListPluginsMockHandler,
  getListSkillsMockHandler,
  getMockHandlers,
  getSearchMockHandler,
} from './gen/msw.gen.js';
import type { CategoryCounts, PluginListItem, SkillListItem, Stats } from './index.js';
import { githubSearchResult, listPageOf, mcpServerEntry } from './test-support.js';

const packageRoot = new URL('../', import.meta.url);

describe('README', () => {
  it('embeds every example file verbatim, each exactly once', async () => {
    await expectReadmeToEmbedEveryExample(packageRoot);
  });
});

const cacheable = { 'cache-control': 'public, max-age=300' };
const categories: CategoryCounts = {
  mcp: [
    { name: 'databases', count: 3 },
    { name: 'developer-tools', count: 12 },
  ],
  plugins: [{ name: 'linting', count: 4 }],
  skills: [{ name: 'documents', count: 40 }],
};
const stats: Stats = { personas: 2, skills: 40, bundles: 1, agents: 3, tools: 18, guides: 5 };
const databaseServers = [1, 2, 3].map((n) => ({ ...mcpServerEntry(n), category: 'databases', official: true }));
const communitySkills: SkillListItem[] = Array.from({ length: 45 }, (_, index) => ({
  slug: `skill-${index}`,
  name: `Skill ${index}`,
  category: 'documents',
  source: 'community',
  tags: [],
  url: `https://directory.example/skills/skill-${index}`,
}));
const claudePlugins: PluginListItem[] = Array.from({ length: 5 }, (_, index) => ({
  marketplaceSlug: 'official',
  slug: `plugin-${index}`,
  name: `Plugin ${index}`,
  category: 'linting',
  ecosystem: 'claude-code',
  stars: 50 - index,
  url: `https://directory.example/plugins/official/plugin-${index}`,
}));

interface ExampleExpectation {
  /** The lines the example prints. */
  prints: string[];
  /** Path and query of the requests it sends, when that is the point of the example. */
  requests?: string[];
  /** Handlers that take precedence while it runs. */
  handlers?: HttpHandler[];
}

/** What each example does when the directory holds the fixtures above. */
const expectations: Record<string, ExampleExpectation> = {
  'quick-start': {
    prints: [
      'GitHub (9000): https://directory.example/mcp/github/github-mcp-server',
      'install with: npx -y github-mcp',
    ],
  },
  errors: {
    prints: ['no skill there (404 on getSkill)', 'query.limit must be at most 25, got 50'],
    requests: ['/api/skills/no-such-skill'],
  },
  retries: { prints: ['40 skills, 18 tools'] },
  timeouts: { prints: ['2 tool server categories'] },
  pagination: {
    prints: [
      'owner-1/repo-1 ★999',
      'owner-2/repo-2 ★998',
      'owner-3/repo-3 ★997',
      '30 community skills',
      'plugins 1–2 of 5',
      'plugins 3–4 of 5',
      'plugins 5–5 of 5',
    ],
    requests: [
      '/api/mcp?category=databases&official=true&limit=50&offset=0',
      '/api/skills?source=community&offset=0',
      '/api/skills?source=community&offset=20',
      '/api/plugins?ecosystem=claude-code&limit=2&offset=0',
      '/api/plugins?ecosystem=claude-code&limit=2&offset=2',
      '/api/plugins?ecosystem=claude-code&limit=2&offset=4',
    ],
  },
  caching: {
    prints: ['1 skill categories', '1 response(s) cached'],
    // The second categories() and the second client's stats() come from the cache; the uncached client asks.
    requests: ['/api/categories', '/api/stats', '/api/stats'],
  },
  'response-validation': {
    prints: ['getStats sent a bad "guides": Invalid input: expected number, received string'],
    handlers: [http.get('*/api/stats', () => HttpResponse.json({ ...stats, guides: 'five' }))],
  },
  'every-operation': { prints: ['Linter: npx -y linter-plugin', '# Directory'] },
};

describe('README examples, run against the ./msw handlers', () => {
  const server = setupServer(
    getSearchMockHandler(githubSearchResult('https://directory.example/mcp/github/github-mcp-server')),
    getGetMcpServerMockHandler({
      ...mcpServerEntry(1),
      installCommand: 'npx -y github-mcp',
      envVars: [],
      docsUrl: 'https://docs.example/github',
    }),
    getListMcpServersMockHandler(({ request }) => listPageOf(databaseServers, request.url)),
    getListSkillsMockHandler(({ request }) => listPageOf(communitySkills, request.url)),
    getListPluginsMockHandler(({ request }) => listPageOf(claudePlugins, request.url)),
    getGetPluginMockHandler({
      name: 'Linter',
      category: 'linting',
      ecosystem: 'claude-code',
      url: 'https://directory.example/plugins/official/linter',
      installCommand: 'npx -y linter-plugin',
      sourceUrl: 'https://git.example/linter',
    }),
    getGetLlmsTxtMockHandler('# Directory\nSearch with /api/search.'),
    http.get('*/api/skills/no-such-skill', () => HttpResponse.json({ error: 'No such skill' }, { status: 404 })),
    http.get('*/api/categories', () => HttpResponse.json(categories, { headers: cacheable })),
    http.get('*/api/stats', () => HttpResponse.json(stats, { headers: cacheable })),
    ...getMockHandlers(),
  );
  const requested: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    requested.push(`${url.pathname}${url.search}`);
  });

  beforeAll(() => {
    faker.seed(7);
    server.listen({ onUnhandledFrame: 'error' });
  });
  beforeEach(() => {
    vi.stubEnv('DIRECTORY_BASE_URL', 'https://directory.example');
    requested.length = 0;
    server.resetHandlers();
  });
  afterAll(() => server.close());

  it.each(Object.entries(expectations))('%s does what the README says', async (name, expected) => {
    server.use(...(expected.handlers ?? []));
    expect(await runExample(packageRoot, name)).toEqual(expected.prints);
    if (expected.requests) expect(requested).toEqual(expected.requests);
  });
});

describe('README testing example', () => {
  it('runs with its own MSW server', async () => {
    vi.stubEnv('DIRECTORY_BASE_URL', undefined);
    expect(await runExample(packageRoot, 'testing')).toEqual(['PDF tools from community']);
  });

  it('every example file is run by this suite', async () => {
    expect(await exampleNames(packageRoot)).toEqual([...Object.keys(expectations), 'testing'].sort());
  });
});
