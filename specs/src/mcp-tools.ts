/**
 * The agent tool servers' `tools/list` results, pinned like the OpenAPI documents. `specs/<service>/mcp-tools.lock.json`
 * holds the sha256 of the accepted bytes; a sync reads the current result (`$SPECS_MIRROR/<service>/mcp-tools.json`,
 * or the server itself), refuses it unless it matches the pin, and writes the bytes unchanged to
 * `specs/dist/<service>.mcp-tools.json`, where the generator of `@agent-apis/mcp` and the contract tests read them.
 *
 * What is hashed: the `result` of the JSON-RPC method `tools/list` as JSON with two-space indentation and a final
 * newline, the form the mirror holds. A server answers inside a JSON-RPC envelope (plain JSON or a server-sent
 * event), possibly over several pages; the reader unwraps it, joins the pages' tools, drops `nextCursor` and writes
 * the result in that form before hashing it, so the same tools hash the same whichever way they were read. The
 * exchange goes through the official MCP SDK client, as `@agent-apis/mcp`'s does.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Pin, readPin, writeLock } from './lock.ts';
import { replaceFile } from './pipeline.ts';
import { table } from './report.ts';
import { DEFAULT_SPECS_ROOT } from './services.ts';
import {
  type FetchedDocument,
  type PinnedSubject,
  readMirrored,
  resolveSourceUrl,
  type SourceOptions,
  SpecSourceError,
  sha256,
  verifyPin,
} from './source.ts';

/** The services that run an agent tool server. */
export const MCP_SERVICES = ['directory', 'store'] as const;
export type McpServiceName = (typeof MCP_SERVICES)[number];

export function isMcpService(value: string): value is McpServiceName {
  return (MCP_SERVICES as readonly string[]).includes(value);
}

/** The file a mirror holds for each service's tools/list result. */
export const MIRROR_FILE = 'mcp-tools.json';

/** What we pin about a tool server's tools/list result. */
export interface McpToolsLock extends Pin {
  /** How the pinned bytes are obtained from `source`. */
  request: string;
  /** Number of tools in the pinned result. */
  tools: number;
}

/** One tool as `tools/list` describes it (the fields this project reads; servers may send more). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  outputSchema?: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** A tools/list result. */
export interface McpToolList {
  tools: McpTool[];
  [key: string]: unknown;
}

/**
 * How to reach each tool server from the environment: a variable that overrides the lock's source URL, and the
 * pairs of variables that may hold the credential headers (header name to variable name), in order of precedence.
 * The store's are the REST client's names and, after them, the earlier ones, as `StoreTools` of `@agent-apis/mcp`
 * reads them.
 */
export const TOOL_SERVER_ENV_VARS: Record<
  McpServiceName,
  { url: string; credentials: readonly Readonly<Record<string, string>>[] }
> = {
  directory: { url: 'DIRECTORY_MCP_URL', credentials: [] },
  store: {
    url: 'STORE_MCP_URL',
    credentials: [
      { 'X-LOGIN-KEY': 'STORE_LOGIN', 'X-AUTH-TOKEN': 'STORE_AUTH_TOKEN' },
      { 'X-LOGIN-KEY': 'STORE_MCP_LOGIN_KEY', 'X-AUTH-TOKEN': 'STORE_MCP_AUTH_TOKEN' },
    ],
  },
};

/** A variable's value, or undefined when it is unset or holds only whitespace (an unset CI secret is ''). */
function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * Which pair of variables a tool server's credential headers are read from (header name to variable name): the
 * first pair of which any variable is set, else the last pair; the pairs are never mixed. For the store that is
 * `STORE_LOGIN` + `STORE_AUTH_TOKEN` when either is set, else `STORE_MCP_LOGIN_KEY` + `STORE_MCP_AUTH_TOKEN`.
 *
 * The rule is `storeCredentialEnvVars` of `@agent-apis/mcp` (packages/mcp/src/store-env.ts), which `StoreTools` and
 * the contract suite use. It is written again here because `@agent-apis/mcp` is generated from this package's
 * tool lists, so this package cannot depend on it; `contract-tests/src/engine/targets.test.ts` holds the two to the
 * same answer for every combination of the four variables.
 */
export function credentialEnvVars(
  service: McpServiceName,
  env: Record<string, string | undefined> = process.env,
): Readonly<Record<string, string>> {
  const pairs = TOOL_SERVER_ENV_VARS[service].credentials;
  const chosen = pairs.find((pair) => Object.values(pair).some((name) => envValue(env, name) !== undefined));
  return chosen ?? pairs.at(-1) ?? {};
}

/** How a message names the variables to set: `A and B (or C and D)`. */
function credentialPairsText(service: McpServiceName): string {
  const [first, ...others] = TOOL_SERVER_ENV_VARS[service].credentials.map((pair) => Object.values(pair).join(' and '));
  return others.length > 0 ? `${first} (or ${others.join(', or ')})` : (first ?? '');
}

export function mcpToolsPaths(service: McpServiceName, root: string = DEFAULT_SPECS_ROOT) {
  return {
    lock: join(root, service, 'mcp-tools.lock.json'),
    /** The verified bytes, gitignored. */
    final: join(root, 'dist', `${service}.mcp-tools.json`),
  };
}

export function readToolsLock(file: string): Promise<McpToolsLock> {
  return readPin<McpToolsLock>(file, ['request']);
}

/** How a hash refusal names a tool list and the command that accepts the new one. */
function toolsSubject(service: string): PinnedSubject {
  return { what: 'the tools/list result', acceptCommand: `pnpm mcp:update ${service}` };
}

/** The pinned form of a tools/list result. */
export function serializeToolList(result: unknown): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** Parses tools/list bytes and checks the shape this project relies on: named tools with object input schemas. */
export function parseToolList(bytes: Uint8Array | string, origin: string): McpToolList {
  const text = typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes);
  let result: unknown;
  try {
    result = JSON.parse(text);
  } catch (cause) {
    throw new SpecSourceError(`${origin}: not JSON (${(cause as Error).message})`, { cause });
  }
  const tools = (result as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) throw new SpecSourceError(`${origin}: not a tools/list result (no "tools" array)`);
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    const { name, inputSchema } = (tool ?? {}) as Partial<McpTool>;
    if (typeof name !== 'string' || name === '') throw new SpecSourceError(`${origin}: tools[${index}] has no name`);
    if (seen.has(name)) throw new SpecSourceError(`${origin}: tool "${name}" is listed twice`);
    seen.add(name);
    if (inputSchema?.type !== 'object') {
      throw new SpecSourceError(`${origin}: tool "${name}" has no object inputSchema`);
    }
  }
  return result as McpToolList;
}

/**
 * The environment variables a network read of `service`'s tool list needs but does not have. With no credential
 * variable set at all, the first pair is named (for the store, the REST client's `STORE_LOGIN` + `STORE_AUTH_TOKEN`).
 */
export function missingServerAccess(
  lock: McpToolsLock,
  env: Record<string, string | undefined> = process.env,
): string[] {
  const service = lock.service as McpServiceName;
  const access = TOOL_SERVER_ENV_VARS[service];
  const missing: string[] = [];
  if (!env[access.url]) {
    for (const [, name] of lock.source.matchAll(/\{([A-Z][A-Z0-9_]*)\}/g)) if (name && !env[name]) missing.push(name);
  }
  const names = Object.values(credentialEnvVars(service, env));
  const noneSet = names.every((name) => envValue(env, name) === undefined);
  for (const name of noneSet ? Object.values(access.credentials[0] ?? {}) : names) {
    if (envValue(env, name) === undefined) missing.push(name);
  }
  return missing;
}

/** The tool server's URL and credential headers, from the environment and the lock. Never prints a credential. */
export function toolServerAccess(
  lock: McpToolsLock,
  env: Record<string, string | undefined> = process.env,
): { url: string; headers: Record<string, string> } {
  const service = lock.service as McpServiceName;
  const access = TOOL_SERVER_ENV_VARS[service];
  const override = env[access.url];
  const url = override ? override.replace(/\/+$/, '') : resolveSourceUrl(lock, env, MIRROR_FILE);
  const names = credentialEnvVars(service, env);
  const orMirror = `or set SPECS_MIRROR to a folder holding ${lock.service}/${MIRROR_FILE}.`;
  if (Object.keys(names).length > 0 && Object.values(names).every((name) => envValue(env, name) === undefined)) {
    throw new SpecSourceError(
      `${lock.service}: the tool server needs credentials, and none is set. ` +
        `Set ${credentialPairsText(service)}, ${orMirror}`,
    );
  }
  const headers: Record<string, string> = {};
  for (const [header, name] of Object.entries(names)) {
    const value = envValue(env, name);
    if (value === undefined) {
      throw new SpecSourceError(
        `${lock.service}: the tool server needs the ${header} header from ${name}, which is not set. ` +
          `Set ${Object.values(names).join(' and ')}, ${orMirror}`,
      );
    }
    headers[header] = value;
  }
  return { url, headers };
}

/** Most `tools/list` pages read before giving up on a server that never stops paging (as `@agent-apis/mcp`). */
const MAX_TOOL_LIST_PAGES = 100;

export interface ToolListRequestOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The JSON-RPC method a transport request carries (read from its body), for error messages. */
function methodOf(init: RequestInit | undefined): string {
  try {
    return (JSON.parse(String(init?.body)) as { method?: string }).method ?? 'a request';
  } catch {
    return 'a request';
  }
}

/**
 * Asks a streamable-HTTP tool server for its tools through the official MCP SDK client (the one
 * `@agent-apis/mcp` runs on): connect (`initialize`, `notifications/initialized`), then `tools/list` page by page.
 * Each page is read with the SDK's loose result schema rather than its tool schema, which would drop fields this
 * project does not know and reorder keys: the pin is over what the server said. Resolves to the joined result.
 */
export async function requestToolList(
  service: string,
  url: string,
  credentials: Record<string, string>,
  options: ToolListRequestOptions = {},
): Promise<McpToolList> {
  const send = options.fetch ?? fetch;
  /** Refusals and unreachable servers are told in the project's words; the SDK only sees the thrown error. */
  const guardedFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    let response: Response;
    try {
      response = await send(input, init);
    } catch (cause) {
      throw new SpecSourceError(
        `${service}: cannot reach ${url} (${(cause as Error).message}). ` +
          `Offline? Set SPECS_MIRROR to a folder holding <service>/${MIRROR_FILE}.`,
        { cause },
      );
    }
    if (init?.method === 'POST' && !response.ok) {
      await response.body?.cancel();
      throw new SpecSourceError(
        `${service}: ${url} answered HTTP ${response.status} ${response.statusText} to ${methodOf(init)}`.trimEnd(),
      );
    }
    return response;
  };
  const client = new Client({ name: '@agent-apis/specs', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: guardedFetch,
    requestInit: { headers: credentials },
  });
  const requestOptions = { timeout: options.timeoutMs ?? 30_000 };
  let method = 'initialize';
  try {
    await client.connect(transport, requestOptions);
    method = 'tools/list';
    let joined: McpToolList | undefined;
    const cursors = new Set<string>();
    let cursor: unknown;
    do {
      if (cursors.size >= MAX_TOOL_LIST_PAGES || cursors.has(cursor as string)) {
        throw new SpecSourceError(
          `${service}: ${url} kept paging tools/list (a repeated cursor, or more than ${MAX_TOOL_LIST_PAGES} pages)`,
        );
      }
      if (cursor !== undefined) cursors.add(cursor as string);
      const params = cursor === undefined ? {} : { params: { cursor: cursor as string } };
      const page = (await client.request({ method, ...params }, ResultSchema, requestOptions)) as McpToolList;
      if (!Array.isArray(page.tools)) throw new SpecSourceError(`${service}: ${url} answered tools/list without tools`);
      if (joined) joined.tools.push(...page.tools);
      else joined = { ...page, tools: [...page.tools] };
      cursor = page.nextCursor;
    } while (typeof cursor === 'string' && cursor !== '');
    delete joined.nextCursor;
    return joined;
  } catch (error) {
    if (error instanceof SpecSourceError) throw error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      throw new SpecSourceError(`${service}: ${url} did not answer ${method} within ${requestOptions.timeout} ms`, {
        cause: error,
      });
    }
    if (error instanceof McpError) {
      throw new SpecSourceError(`${service}: ${url} refused ${method} (${error.message})`, { cause: error });
    }
    throw new SpecSourceError(`${service}: ${url} sent an unreadable reply to ${method}`, { cause: error });
  } finally {
    await client.close();
  }
}

/** Reads the current tools/list result: from the mirror folder when one is given, else from the server. */
export async function readUpstreamTools(lock: McpToolsLock, options: SourceOptions = {}): Promise<FetchedDocument> {
  if (options.mirror) return readMirrored(lock.service, options.mirror, MIRROR_FILE);
  const { url, headers } = toolServerAccess(lock, options.env ?? process.env);
  const result = await requestToolList(lock.service, url, headers, {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const bytes = new TextEncoder().encode(serializeToolList(result));
  return { bytes, sha256: sha256(bytes), origin: `${url} (tools/list)` };
}

/** Reads the current tools/list result and refuses it unless its sha256 is the pinned one. */
export async function readPinnedTools(lock: McpToolsLock, options: SourceOptions = {}): Promise<FetchedDocument> {
  return verifyPin(lock, await readUpstreamTools(lock, options), toolsSubject(lock.service));
}

export interface SyncedToolList {
  service: McpServiceName;
  sha256: string;
  tools: number;
  /** `specs/dist/<service>.mcp-tools.json`. */
  file: string;
}

/** Verifies one service's tool list against its pin and writes it to `specs/dist/`. */
export async function syncToolList(
  service: McpServiceName,
  options: SourceOptions & { root?: string } = {},
): Promise<SyncedToolList> {
  const paths = mcpToolsPaths(service, options.root);
  const lock = await readToolsLock(paths.lock);
  const pinned = await readPinnedTools(lock, options);
  const list = parseToolList(pinned.bytes, pinned.origin);
  await replaceFile(paths.final, pinned.bytes);
  return { service, sha256: pinned.sha256, tools: list.tools.length, file: paths.final };
}

/** `specs:sync`'s part for tool servers: syncs those of `services` that have one and returns a summary table. */
export async function syncToolLists(
  services: readonly string[],
  options: SourceOptions & { root?: string } = {},
): Promise<string> {
  const synced: SyncedToolList[] = [];
  for (const service of services.filter(isMcpService)) synced.push(await syncToolList(service, options));
  if (synced.length === 0) return '';
  return `\nagent tool servers (tools/list):\n${table(
    ['service', 'tools/list sha256', 'tools', 'file'],
    synced.map((s) => [s.service, s.sha256, String(s.tools), join('specs', 'dist', `${s.service}.mcp-tools.json`)]),
  )}`;
}

/** The synced tool list of `service`, checked once more against its pin (for generators and tests). */
export async function readSyncedToolList(
  service: McpServiceName,
  root: string = DEFAULT_SPECS_ROOT,
): Promise<{ lock: McpToolsLock; list: McpToolList; sha256: string; file: string }> {
  const paths = mcpToolsPaths(service, root);
  const lock = await readToolsLock(paths.lock);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(paths.final);
  } catch (cause) {
    throw new SpecSourceError(`${service}: ${paths.final} is missing; run pnpm specs:sync`, { cause });
  }
  const hash = sha256(bytes);
  if (hash !== lock.sha256) {
    throw new SpecSourceError(
      `${service}: ${paths.final} (sha256 ${hash}) is not the pinned tools/list result (sha256 ${lock.sha256}); ` +
        'run pnpm specs:sync',
    );
  }
  return { lock, list: parseToolList(bytes, paths.final), sha256: hash, file: paths.final };
}

export interface ToolsPinUpdate {
  service: McpServiceName;
  previous: McpToolsLock;
  next: McpToolsLock;
  changed: boolean;
}

/** Reads the current tools/list result and pins it in `specs/<service>/mcp-tools.lock.json`. */
export async function updateToolsPin(
  service: McpServiceName,
  options: SourceOptions & { root?: string; now?: Date } = {},
): Promise<ToolsPinUpdate> {
  const file = mcpToolsPaths(service, options.root).lock;
  const previous = await readToolsLock(file);
  const current = await readUpstreamTools(previous, options);
  if (current.sha256 === previous.sha256) return { service, previous, next: previous, changed: false };
  const list = parseToolList(current.bytes, current.origin);
  const next: McpToolsLock = {
    ...previous,
    sha256: current.sha256,
    fetchedAt: (options.now ?? new Date()).toISOString(),
    tools: list.tools.length,
  };
  await writeLock(file, next);
  return { service, previous, next, changed: true };
}
