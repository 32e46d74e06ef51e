/**
 * The Directory API client: every operation of the spec under `api`, and search, listings, lookups and
 * client-side HTTP caching at the top level.
 */
import {
  AgentApiError,
  type BoundOperations,
  bindOperations,
  createFetch,
  HttpCache,
  type Logger,
  type LogLevel,
  operationMatcher,
  schemaResponseValidator,
} from '@agent-apis/core';
import { type OperationId, operations } from './gen/operations.gen.js';
import { createClient, createConfig } from './gen/sdk/client/index.gen.js';
import * as sdk from './gen/sdk/sdk.gen.js';
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
} from './gen/sdk/types.gen.js';
import { DirectoryResource, type RequestOptions } from './resource.js';

/** Environment variable read for the base URL when `baseUrl` is not passed. */
export const BASE_URL_ENV_VAR = 'DIRECTORY_BASE_URL';
/** Environment variable read for the log level when `logLevel` is not passed. */
export const LOG_ENV_VAR = 'AGENT_APIS_LOG';

/** Options of {@link DirectoryClient}. */
export interface DirectoryClientOptions {
  /** Base URL of the Directory API in your environment (default: the `DIRECTORY_BASE_URL` environment variable). */
  baseUrl?: string;
  /** The `fetch` to send requests with (default: `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Per-attempt timeout in ms (default 60 000). */
  timeout?: number;
  /** Retries of a failed request (default 2). */
  maxRetries?: number;
  /** Headers sent with every request. */
  defaultHeaders?: HeadersInit;
  /** Destination of log lines (default `console`). */
  logger?: Logger;
  /** Log level (default: the `AGENT_APIS_LOG` environment variable, else off). */
  logLevel?: LogLevel;
  /** Check every JSON response against the spec's schema; a mismatch throws `ResponseValidationError`. */
  validateResponses?: boolean;
  /**
   * Client-side HTTP cache honouring `Cache-Control` and `ETag`, as the service asks (default: on, a new
   * `HttpCache` per client). Pass your own `HttpCache` to share or size it, `false` to turn caching off.
   */
  cache?: boolean | HttpCache;
}

type ThrowingOperation<F> = F extends (...args: infer A) => Promise<infer R>
  ? (...args: A) => Promise<Exclude<R, undefined>>
  : never;
type BoundSdk = BoundOperations<typeof sdk, OperationId>;

/** Every operation of the spec, by operationId, with the generated SDK's options and types. */
export type DirectoryApi = { [K in keyof BoundSdk]: ThrowingOperation<BoundSdk[K]> };

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

function readEnv(name: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}

function resolveCache(cache: DirectoryClientOptions['cache']): HttpCache | false {
  if (cache === false) return false;
  return cache instanceof HttpCache ? cache : new HttpCache();
}

/** Loads the zod schemas only when validation is on, so they stay out of bundles that never validate. */
const validateAgainstSpec = schemaResponseValidator(async (operation) => {
  const { validators } = await import('./gen/validators.gen.js');
  return operation in validators ? validators[operation as OperationId].response : undefined;
});

/** Client of the Directory API: a read-only directory of MCP servers, coding-agent plugins and agent skills. */
export class DirectoryClient {
  /** Every operation of the spec, e.g. `api.getMcpServer({ path: { owner, repo } })`. */
  readonly api: DirectoryApi;
  readonly mcpServers: McpServers;
  readonly plugins: Plugins;
  readonly skills: Skills;

  /** Throws when no base URL is given and `DIRECTORY_BASE_URL` is unset. */
  constructor(options: DirectoryClientOptions = {}) {
    const baseUrl = options.baseUrl ?? readEnv(BASE_URL_ENV_VAR);
    if (!baseUrl) {
      throw new AgentApiError(
        `DirectoryClient needs the API's base URL of your environment: pass baseUrl or set ${BASE_URL_ENV_VAR}`,
      );
    }
    const transport = createFetch({
      fetch: options.fetch,
      timeout: options.timeout,
      maxRetries: options.maxRetries,
      defaultHeaders: options.defaultHeaders,
      logger: options.logger,
      logLevel: options.logLevel,
      logEnvVar: LOG_ENV_VAR,
      operationFor: operationMatcher(operations),
      validateResponse: options.validateResponses ? validateAgainstSpec : undefined,
      cache: resolveCache(options.cache),
    });
    const client = createClient(createConfig({ baseUrl, fetch: transport, throwOnError: true }));
    this.api = bindOperations(sdk, operations, client) as DirectoryApi;
    this.mcpServers = new DirectoryResource(this.api.listMcpServers, this.api.getMcpServer);
    this.plugins = new DirectoryResource(this.api.listPlugins, this.api.getPlugin);
    this.skills = new DirectoryResource(this.api.listSkills, this.api.getSkill);
  }

  /** Searches the three datasets; `type` narrows to one (`mcp`, `skill`, `plugin`), `limit` (1–25) is per type. */
  search(params: SearchParams, options?: RequestOptions): Promise<SearchResponse> {
    return this.api.search({ ...options, query: params });
  }

  /** Category names and record counts of each dataset. */
  categories(options?: RequestOptions): Promise<CategoryCounts> {
    return this.api.getCategories(options);
  }

  /** Aggregate totals of the directory. */
  stats(options?: RequestOptions): Promise<Stats> {
    return this.api.getStats(options);
  }

  /** The service's own OpenAPI 3.1 description. */
  openapi(options?: RequestOptions): Promise<GetOpenApiDocumentResponse> {
    return this.api.getOpenApiDocument(options);
  }

  /** The plain-text guide the service publishes for agents (`/llms.txt`). */
  llmsTxt(options?: RequestOptions): Promise<string> {
    return this.api.getLlmsTxt(options);
  }
}
