/**
 * The server's configuration from the command line and the environment. The API clients read their own variables
 * (STORE_LOGIN, STORE_AUTH_TOKEN or STORE_ACCESS_TOKEN, STORE_BASE_URL; ENTROPY0_API_KEY, TRUST_BASE_URL;
 * DIRECTORY_BASE_URL); these are the server's.
 */
import { parseArgs } from 'node:util';
import { MIN_FLEET_SECRET_LENGTH } from '@agent-apis/core/service';
import { FLEET_SECRET_ENV_VAR } from '@agent-apis/directory';
import { SERVICES, unknownToolsets } from './catalog.js';
import { CODE_MODE_ENV_VAR } from './code/code-mode.js';
import { type HttpServerOptions, isLoopback, TOKEN_ENV_VAR } from './http.js';
import type { ServiceName } from './operation.js';
import { ALLOW_DANGEROUS_ENV_VAR, ALLOW_WRITES_ENV_VAR, listOf } from './safety.js';
import { SCHEMA_PROFILE_ENV_VAR, SCHEMA_PROFILES, type SchemaProfile } from './schema-profile.js';

/** Environment variable read when `--services` is not given (comma-separated services). */
export const SERVICES_ENV_VAR = 'AGENT_APIS_MCP_SERVICES';
/** Environment variable read when `--store-toolsets` is not given (comma-separated resources, or `all`). */
export const STORE_TOOLSETS_ENV_VAR = 'AGENT_APIS_MCP_STORE_TOOLSETS';
/** Environment variable read when `--max-answer-bytes` is not given. */
export const MAX_ANSWER_BYTES_ENV_VAR = 'AGENT_APIS_MCP_MAX_ANSWER_BYTES';
/** Environment variable read when `--redis` is not given. */
export const REDIS_URL_ENV_VAR = 'AGENT_APIS_REDIS_URL';
/** Environment variable read when `--allow-origin` is not given (comma-separated browser origins). */
export const ALLOW_ORIGIN_ENV_VAR = 'AGENT_APIS_MCP_ALLOW_ORIGIN';
/** Environment variable read when `--max-held-bytes` is not given. */
export const MAX_HELD_BYTES_ENV_VAR = 'AGENT_APIS_MCP_MAX_HELD_BYTES';
/** @deprecated Use {@link SERVICES_ENV_VAR} (every package names environment variables `*_ENV_VAR`). */
export const SERVICES_ENV = SERVICES_ENV_VAR;
/** @deprecated Use {@link STORE_TOOLSETS_ENV_VAR}. */
export const STORE_TOOLSETS_ENV = STORE_TOOLSETS_ENV_VAR;
/** @deprecated Use {@link MAX_ANSWER_BYTES_ENV_VAR}. */
export const MAX_ANSWER_BYTES_ENV = MAX_ANSWER_BYTES_ENV_VAR;
/** @deprecated Use {@link REDIS_URL_ENV_VAR}. */
export const REDIS_URL_ENV = REDIS_URL_ENV_VAR;
export const DEFAULT_HTTP_PORT = 3333;

export const USAGE = `usage: agent-apis-mcp-server [--http] [--host <address>] [--port <n>] [--allow-writes <services>]
       [--allow-dangerous <service.operationId,...>] [--store-toolsets <resources,store.operationId,...>|all]
       [--services <services>] [--schema-profile default|openai|gemini|native] [--code-mode]
       [--max-answer-bytes <n>] [--max-held-bytes <n>] [--redis <url>] [--allow-origin <origins>]
       [--max-sessions <n>] [--help]
  stdio by default (ends when stdin ends); --http serves streamable HTTP at http://127.0.0.1:${DEFAULT_HTTP_PORT}/mcp
  (loopback unless --host; any other host needs ${TOKEN_ENV_VAR}, a bearer token). Read-only by default. Environment: ${ALLOW_WRITES_ENV_VAR}, ${ALLOW_DANGEROUS_ENV_VAR},
  ${STORE_TOOLSETS_ENV_VAR}, ${SCHEMA_PROFILE_ENV_VAR}, ${CODE_MODE_ENV_VAR}, ${SERVICES_ENV_VAR}, ${MAX_ANSWER_BYTES_ENV_VAR}, ${MAX_HELD_BYTES_ENV_VAR},
  ${ALLOW_ORIGIN_ENV_VAR}, ${TOKEN_ENV_VAR} (--http: required Authorization: Bearer), ${REDIS_URL_ENV_VAR} (with it,
  ${FLEET_SECRET_ENV_VAR}: at least ${MIN_FLEET_SECRET_LENGTH} characters, the same in every process); the clients' own STORE_LOGIN,
  STORE_AUTH_TOKEN, STORE_ACCESS_TOKEN, STORE_BASE_URL, ENTROPY0_API_KEY, TRUST_BASE_URL, DIRECTORY_BASE_URL.`;

export interface CliConfig extends HttpServerOptions {
  transport: 'stdio' | 'http';
  /** `--help` (`-h`): print the usage and exit. */
  help: boolean;
  redisUrl?: string | undefined;
}

/** A configuration problem, reported with the usage. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function services(value: string | undefined, what: string): ServiceName[] | undefined {
  if (value === undefined) return undefined;
  const list = listOf(value);
  const unknown = list.filter((name) => !SERVICES.includes(name as ServiceName));
  if (unknown.length > 0)
    throw new ConfigError(`${what}: unknown service ${unknown.join(', ')} (${SERVICES.join(', ')})`);
  return list as ServiceName[];
}

function positiveInteger(value: string | undefined, what: string, minimum = 1): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum)
    throw new ConfigError(`${what} must be an integer of at least ${minimum}`);
  return number;
}

/** The configuration from `argv` (without node and script) over `env`. Throws a {@link ConfigError}. */
export function readConfig(argv: readonly string[], env: Record<string, string | undefined>): CliConfig {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        http: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        'allow-writes': { type: 'string' },
        'allow-dangerous': { type: 'string' },
        'store-toolsets': { type: 'string' },
        'schema-profile': { type: 'string' },
        services: { type: 'string' },
        'max-answer-bytes': { type: 'string' },
        redis: { type: 'string' },
        'max-held-bytes': { type: 'string' },
        'allow-origin': { type: 'string' },
        'max-sessions': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        'code-mode': { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const pick = (flag: string, name: string) => (values[flag] as string | undefined) ?? env[name];
  const toolsets = pick('store-toolsets', STORE_TOOLSETS_ENV_VAR);
  const storeToolsets = toolsets === 'all' ? ('all' as const) : toolsets === undefined ? undefined : listOf(toolsets);
  if (Array.isArray(storeToolsets)) {
    const unknown = unknownToolsets(storeToolsets);
    if (unknown.length > 0) {
      throw new ConfigError(`unknown store tool set ${unknown.join(', ')} (a resource, or store.<operationId>)`);
    }
  }
  const schemaProfile = pick('schema-profile', SCHEMA_PROFILE_ENV_VAR);
  if (schemaProfile !== undefined && !SCHEMA_PROFILES.includes(schemaProfile as SchemaProfile)) {
    throw new ConfigError(`--schema-profile: ${schemaProfile} is not one of ${SCHEMA_PROFILES.join(', ')}`);
  }
  const dangerous = listOf(pick('allow-dangerous', ALLOW_DANGEROUS_ENV_VAR));
  const malformed = dangerous.filter((name) => !/^(directory|store|trust)\.\w+$/.test(name));
  if (malformed.length > 0) {
    throw new ConfigError(`--allow-dangerous takes <service>.<operationId> names, not ${malformed.join(', ')}`);
  }
  const token = env[TOKEN_ENV_VAR] || undefined;
  const host = values.host as string | undefined;
  if (values.http && host !== undefined && !isLoopback(host) && !token) {
    throw new ConfigError(`--host ${host} is not loopback: set ${TOKEN_ENV_VAR} to a bearer token clients must send`);
  }
  const origins = listOf(pick('allow-origin', ALLOW_ORIGIN_ENV_VAR));
  const badOrigins = origins.filter((origin) => !/^https?:\/\/[^/\s]+$/.test(origin));
  if (badOrigins.length > 0) {
    throw new ConfigError(`--allow-origin takes origins like https://app.example, not ${badOrigins.join(', ')}`);
  }
  return {
    transport: values.http ? 'http' : 'stdio',
    token,
    allowedOrigins: origins,
    maxHeldBytes: positiveInteger(pick('max-held-bytes', MAX_HELD_BYTES_ENV_VAR), '--max-held-bytes'),
    maxSessions: positiveInteger(values['max-sessions'] as string | undefined, '--max-sessions'),
    help: values.help === true,
    host: values.host as string | undefined,
    // --port 0: any free port (printed on stderr).
    port: positiveInteger(values.port as string | undefined, '--port', 0) ?? DEFAULT_HTTP_PORT,
    allowWrites: services(pick('allow-writes', ALLOW_WRITES_ENV_VAR), '--allow-writes') ?? [],
    allowDangerous: dangerous,
    storeToolsets,
    schemaProfile: schemaProfile as SchemaProfile | undefined,
    services: services(pick('services', SERVICES_ENV_VAR), '--services'),
    maxAnswerBytes: positiveInteger(pick('max-answer-bytes', MAX_ANSWER_BYTES_ENV_VAR), '--max-answer-bytes'),
    redisUrl: pick('redis', REDIS_URL_ENV_VAR),
    // Code mode (src/code/): describe_operations and execute instead of one tool per operation.
    codeMode: values['code-mode'] === true || /^(1|true)$/i.test(env[CODE_MODE_ENV_VAR] ?? ''),
  };
}
