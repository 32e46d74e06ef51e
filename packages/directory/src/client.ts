/**
 * The Directory API client: every operation of the spec under `api`, and search, listings, lookups and
 * client-side HTTP caching at the top level.
 */
import type { ApiPromise, ClientOptions, HttpCache, RedisClientLike, RequestOptions } from '@agent-apis/core';
import { AgentApiError } from '@agent-apis/core';
import type { BoundOperations, ServiceClientConfig } from '@agent-apis/core/service';
import { ApiClient, assertRedisClient, bindOperations, readEnv } from '@agent-apis/core/service';
import type * as functions from './gen/api.gen.js';
import { type OperationId, operations } from './gen/operations.gen.js';
import type {
  CategoryCounts,
  GetMcpServerData,
  GetOpenApiDocumentResponse,
  GetPluginData,
  GetSkillData,
  ListMcpServersData,
  ListPluginsData,
  ListSkillsData,
  McpServer,
  McpServerList,
  McpServerListItem,
  Plugin,
  PluginList,
  PluginListItem,
  SearchData,
  SearchResponse,
  Skill,
  SkillList,
  SkillListItem,
  Stats,
} from './gen/types.gen.js';
import { DirectoryResource } from './resource.js';

/**
 * The generated validators, loaded only when `validateResponses` is `true`, by the package's own entry name (a
 * self-reference, so it resolves from either layout of `dist/`). Not a literal in the `import()` on purpose: bundlers
 * leave the import alone rather than inlining zod behind lazy initialisers (see core's `ServiceTransport.loadValidators`).
 */
const VALIDATORS_MODULE = '@agent-apis/directory/validators';

/** Environment variable read for the base URL when `baseUrl` is not passed. */
export const BASE_URL_ENV_VAR = 'DIRECTORY_BASE_URL';

/** Options of {@link DirectoryClient}. */
export interface DirectoryClientOptions extends ClientOptions {
  /** Base URL of the Directory API in your environment (default: the `DIRECTORY_BASE_URL` environment variable). */
  baseUrl?: string | undefined;
  /**
   * Client-side HTTP cache honouring `Cache-Control` (`s-maxage` included: the directory is keyless and public, so
   * its answers are the same for everyone) and `ETag`, as the service asks (default: on, a new `HttpCache` per
   * client). Pass your own `HttpCache` to share or size it, `false` to turn caching off, or `{ redis, secret }` (a
   * connected node-redis client, v5 or later, and the fleet's secret) to share the answers with every process of a
   * fleet using that Redis, under the same rules and bounds (see "Running a fleet" in the README). Entries in Redis
   * are signed with `secret` (default: the `AGENT_APIS_FLEET_SECRET` environment variable; at least 16
   * characters, the same in every process, never written to Redis): another Redis user cannot forge one.
   */
  cache?: boolean | HttpCache | { redis: RedisClientLike; secret?: string | undefined } | undefined;
}

/** Every operation of the spec, by operationId, with the generated SDK's options and types. */
export type DirectoryApi = BoundOperations<typeof functions, OperationId>;

/** Filters of `mcpServers.list`. */
export type McpServerFilters = NonNullable<ListMcpServersData['query']>;
/** Filters of `plugins.list`. */
export type PluginFilters = NonNullable<ListPluginsData['query']>;
/** Filters of `skills.list`. */
export type SkillFilters = NonNullable<ListSkillsData['query']>;
/** Parameters of `search`. */
export type SearchParams = SearchData['query'];

/** Tool servers (MCP servers), keyed by repository owner and name. */
export type McpServers = DirectoryResource<
  McpServerFilters,
  McpServerListItem,
  McpServerList,
  GetMcpServerData['path'],
  McpServer
>;
/** Coding-agent plugins, keyed by marketplace and plugin slug. */
export type Plugins = DirectoryResource<PluginFilters, PluginListItem, PluginList, GetPluginData['path'], Plugin>;
/** Agent skills, keyed by slug. */
export type Skills = DirectoryResource<SkillFilters, SkillListItem, SkillList, GetSkillData['path'], Skill>;

/** The environment variable holding the fleet's secret when `cache.secret` is not given. */
export const FLEET_SECRET_ENV_VAR = 'AGENT_APIS_FLEET_SECRET';

/**
 * The cache option checked now, and built at the first call (its code loads with the transport): a new in-memory
 * `HttpCache` by default, the caller's own, or one with a shared Redis tier.
 */
function cacheConfig(options: DirectoryClientOptions): Pick<ServiceClientConfig, 'cache' | 'loadTransportOptions'> {
  const { cache } = options;
  if (cache === false) return {};
  // Honouring `s-maxage`: the directory is keyless and public, so its answers are everyone's. Its class comes from
  // core's entry, which the client's index has loaded already (it re-exports the class): no module of ours to load.
  if (cache === undefined || cache === true) {
    return {
      loadTransportOptions: () =>
        import('@agent-apis/core').then(({ HttpCache }) => ({
          cache: new HttpCache({ sharedMaxAge: true }),
        })),
    };
  }
  if (typeof cache !== 'object' || cache === null) {
    throw new AgentApiError('DirectoryClient cache must be true, false, an HttpCache or { redis, secret }');
  }
  // An HttpCache of another copy of core is not an instance of this one's class: its methods tell it.
  const given = cache as Partial<Record<'plan' | 'fetchThrough', unknown>>;
  if (typeof given.plan === 'function' && typeof given.fetchThrough === 'function')
    return { cache: cache as HttpCache };
  assertRedisClient('DirectoryClient cache.redis', (cache as { redis?: unknown }).redis);
  const { redis } = cache as { redis: RedisClientLike };
  const secret = (cache as { secret?: unknown }).secret ?? readEnv(FLEET_SECRET_ENV_VAR);
  if (typeof secret !== 'string' || secret.length < 16) {
    throw new AgentApiError(
      `DirectoryClient cache.secret (or ${FLEET_SECRET_ENV_VAR}) must be a string of at least 16 characters`,
    );
  }
  return {
    loadTransportOptions: () =>
      import('./cache.js').then((module) => module.sharedDirectoryCache({ redis, secret, options })),
  };
}

/** Client of the Directory API: a read-only directory of MCP servers, coding-agent plugins and agent skills. */
export class DirectoryClient {
  /** Every operation of the spec, e.g. `api.getMcpServer({ path: { owner, repo } })`. */
  readonly api: DirectoryApi;
  readonly mcpServers: McpServers;
  readonly plugins: Plugins;
  readonly skills: Skills;

  /** The configured client the operations are sent through. */
  readonly client: ApiClient;

  /** Throws when no base URL is given and `DIRECTORY_BASE_URL` is unset, `InvalidBaseUrlError` for a malformed one. */
  constructor(options: DirectoryClientOptions = {}) {
    this.client = createDirectoryClient(options);
    this.api = bindOperations<typeof functions, typeof operations>(operations, this.client);
    this.mcpServers = new DirectoryResource(this.api.listMcpServers, this.api.getMcpServer);
    this.plugins = new DirectoryResource(this.api.listPlugins, this.api.getPlugin);
    this.skills = new DirectoryResource(this.api.listSkills, this.api.getSkill);
  }

  /** Searches the three datasets; `type` narrows to one (`mcp`, `skill`, `plugin`), `limit` (1–25) is per type. */
  search(params: SearchParams, options?: RequestOptions): ApiPromise<SearchResponse> {
    return this.api.search({ ...options, query: params });
  }

  /** Category names and record counts of each dataset. */
  categories(options?: RequestOptions): ApiPromise<CategoryCounts> {
    return this.api.getCategories(options);
  }

  /** Aggregate totals of the directory. */
  stats(options?: RequestOptions): ApiPromise<Stats> {
    return this.api.getStats(options);
  }

  /** The service's own OpenAPI 3.1 description. */
  openapi(options?: RequestOptions): ApiPromise<GetOpenApiDocumentResponse> {
    return this.api.getOpenApiDocument(options);
  }

  /** The plain-text guide the service publishes for agents (`/llms.txt`). */
  llmsTxt(options?: RequestOptions): ApiPromise<string> {
    return this.api.getLlmsTxt(options);
  }
}

/**
 * The directory's configured client alone, for the operation functions imported one by one
 * (`getStats(createDirectoryClient({ baseUrl }))`), so a bundle carries only the operations it uses.
 */
export function createDirectoryClient(options: DirectoryClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? readEnv(BASE_URL_ENV_VAR);
  if (!baseUrl) {
    throw new AgentApiError(
      `DirectoryClient needs the API's base URL of your environment: pass baseUrl or set ${BASE_URL_ENV_VAR}`,
    );
  }
  return new ApiClient(options, {
    client: 'DirectoryClient',
    baseUrl,
    loadValidators: () => import(VALIDATORS_MODULE),
    validatorsEntry: VALIDATORS_MODULE,
    ...cacheConfig(options),
  });
}
