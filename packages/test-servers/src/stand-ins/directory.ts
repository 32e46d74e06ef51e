/**
 * A loopback stand-in of the directory API: the MCP servers, plugins and skills of `directory-records.json`,
 * listed with count/total/limit/offset, looked up by their own keys (unknown ones → 404), no credentials. Query
 * values outside the spec's rules get a 400 (strict) or are clamped and ignored, and a search without `q` lists
 * everything (lenient): the contract leaves the handling of out-of-range values open.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Answer,
  errorAnswer,
  type HandlerRequest,
  type InputMode,
  type LoggedRequest,
  loadDocument,
  readQuery,
  router,
  type StandIn,
  serve,
} from './server.ts';

type Entry = Record<string, unknown>;

interface Fixture {
  mcpServers: Entry[];
  plugins: Entry[];
  skills: Entry[];
}

const LIST_FIELDS = {
  mcpServers: ['owner', 'repo', 'title', 'category', 'official', 'tags', 'stars', 'transport', 'url'],
  plugins: ['marketplaceSlug', 'slug', 'name', 'category', 'ecosystem', 'stars', 'url'],
  skills: ['slug', 'name', 'category', 'source', 'tags', 'url'],
} as const;

function pick(entry: Entry, fields: readonly string[]): Entry {
  return Object.fromEntries(fields.filter((f) => f in entry).map((f) => [f, entry[f]]));
}

export interface DirectoryStandInOptions {
  latencyMs?: number;
  /** Query values outside the spec's rules: 400 (`strict`, the default) or clamped/ignored (`lenient`). */
  mode?: InputMode;
  /** Planted violation: `listField`, a string `stars` in one MCP server list entry (not the first). */
  plant?: 'listField';
  /**
   * Listings apply their filters (`category`, `official`, `ecosystem`, `source`: equal values; `q`: anywhere in
   * the entry), as `pnpm mock` serves them; off by default, where every listing answers the whole dataset.
   */
  applyFilters?: boolean;
}

const FILTERS = ['category', 'official', 'ecosystem', 'source'];

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const count = (value: unknown): number => (typeof value === 'number' && value >= 0 ? value : 0);

/** One record of a dataset as a search result of `type`, named by its `nameKey`. */
const asResult =
  (type: string, nameKey: 'title' | 'name') =>
  (e: Entry): Entry => ({
    type,
    name: text(e[nameKey]),
    description: text(e.description, text(e[nameKey])),
    url: e.url,
    category: text(e.category),
    popularity: count(e.stars),
  });

/** The search's `type` values, each with its dataset and how one of its records reads as a search result. */
const SEARCH_KINDS: { type: string; dataset: keyof Fixture; result: (entry: Entry) => Entry }[] = [
  { type: 'mcp', dataset: 'mcpServers', result: asResult('mcp_server', 'title') },
  { type: 'skill', dataset: 'skills', result: asResult('skill', 'name') },
  { type: 'plugin', dataset: 'plugins', result: asResult('plugin', 'name') },
];

/** Whether `entry` passes the listing filters of `query`. */
function passes(entry: Entry, query: URLSearchParams): boolean {
  const q = query.get('q')?.toLowerCase();
  if (q && !JSON.stringify(entry).toLowerCase().includes(q)) return false;
  return FILTERS.every((name) => !query.has(name) || String(entry[name]) === query.get(name));
}

export async function startDirectoryStandIn(options: DirectoryStandInOptions = {}): Promise<StandIn> {
  // The service's own `/api/openapi.json` answers from the final document.
  const document = loadDocument('directory');
  const route = router('directory');
  const data = JSON.parse(readFileSync(join(import.meta.dirname, 'directory-records.json'), 'utf8')) as Fixture;
  const notFound = errorAnswer('directory', 404, 'not found');
  const listing = (kind: keyof Fixture, query: URLSearchParams) => {
    const limit = Number(query.get('limit') ?? 20);
    const offset = Number(query.get('offset') ?? 0);
    const entries = options.applyFilters ? data[kind].filter((entry) => passes(entry, query)) : data[kind];
    const results = entries.slice(offset, offset + limit).map((e) => pick(e, LIST_FIELDS[kind]));
    if (options.plant === 'listField' && kind === 'mcpServers' && results.length > 1) {
      const last = results.length - 1;
      results[last] = { ...results[last], stars: String(results[last]?.stars) };
    }
    return { status: 200, body: { count: results.length, total: entries.length, limit, offset, results } };
  };
  // Search: `q` anywhere in a record, `type` picks the datasets, `limit` caps the results of each type (the
  // spec: "1 to 25 per type"); a strict stand-in has refused a missing `q` or an out-of-range value already.
  const search = (query: URLSearchParams): Answer => {
    const q = (query.get('q') ?? '').toLowerCase();
    const type = query.get('type') ?? 'all';
    const limit = Number(query.get('limit') ?? 10);
    const kinds = SEARCH_KINDS.filter((kind) => type === 'all' || kind.type === type);
    const results = kinds.flatMap((kind) =>
      data[kind.dataset]
        .filter((entry) => JSON.stringify(entry).toLowerCase().includes(q))
        .slice(0, limit)
        .map((entry) => kind.result(entry)),
    );
    return { status: 200, body: { query: q, type, count: results.length, results } };
  };
  const cached = (answer: Answer): Answer =>
    answer.status === 200 ? { ...answer, headers: { 'cache-control': 'public, s-maxage=300' } } : answer;
  return serve((request, log) => cached(answer(request, log)), options.latencyMs);

  function answer({ method, path, query: rawQuery }: HandlerRequest, log: LoggedRequest): Answer {
    const found = route(method, path);
    if (!found) return notFound;
    log.operation = found.row.id;
    const read = readQuery(options.mode ?? 'strict', found, rawQuery);
    if ('problem' in read) return errorAnswer('directory', 400, read.problem);
    const query = read.query;
    const p = found.params;
    switch (found.row.id) {
      case 'listMcpServers':
        return listing('mcpServers', query);
      case 'listPlugins':
        return listing('plugins', query);
      case 'listSkills':
        return listing('skills', query);
      case 'getMcpServer': {
        const entry = data.mcpServers.find((e) => e.owner === p.owner && e.repo === p.repo);
        return entry ? { status: 200, body: entry } : notFound;
      }
      case 'getPlugin': {
        const entry = data.plugins.find((e) => e.marketplaceSlug === p.marketplace && e.slug === p.plugin);
        return entry
          ? { status: 200, body: pick(entry, ['name', 'category', 'ecosystem', 'url', 'installCommand', 'sourceUrl']) }
          : notFound;
      }
      case 'getSkill': {
        const entry = data.skills.find((e) => e.slug === p.slug);
        return entry
          ? { status: 200, body: pick(entry, ['slug', 'name', 'source', 'url', 'docsUrl', 'repoUrl']) }
          : notFound;
      }
      case 'getCategories': {
        const count = (kind: keyof Fixture) =>
          [...new Set(data[kind].map((e) => e.category as string))].map((name) => ({
            name,
            count: data[kind].filter((e) => e.category === name).length,
          }));
        return { status: 200, body: { mcp: count('mcpServers'), plugins: count('plugins'), skills: count('skills') } };
      }
      case 'getStats':
        return {
          status: 200,
          body: {
            personas: 4,
            skills: data.skills.length,
            bundles: 2,
            agents: 6,
            tools: data.mcpServers.length,
            guides: 3,
          },
        };
      case 'search':
        return search(query);
      case 'getOpenApiDocument':
        return { status: 200, body: { openapi: document.openapi, info: document.info, paths: {} } };
      case 'getLlmsTxt':
        return {
          status: 200,
          body: '# Directory\n\n- /api/mcp: MCP servers\n',
          contentType: 'text/plain; charset=utf-8',
        };
      default:
        return notFound;
    }
  }
}
