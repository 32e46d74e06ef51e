/**
 * Section `mcp-tools`: what `tools/list` costs a model's context, in bytes of the JSON result and in estimated
 * tokens (bytes / 4, the usual rule of thumb for English and JSON; no tokenizer is installed). Every server is a
 * real process over stdio, listed by the MCP SDK's client: `@agent-apis/mcp-server` (its built bin) in each mode,
 * beside the two spec-to-MCP generators on the same final spec: `@ivotoby/openapi-mcp-server` 1.16 (run from its
 * bin) and `openapi-mcp-generator` 4.0 (its generated server written to `bench/.work/`, run by Node's type
 * stripping with the bench's dependencies). Both peers list one tool per operation.
 */
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BENCH_DIR, finalSpec, REPO_ROOT, WORK_DIR } from './paths.ts';
import { runCommand } from './run-command.ts';

export interface McpToolsRow {
  /** What is listed: `default`, `store, one tool per operation`, `directory`, … */
  mode: string;
  server: string;
  tools: number;
  bytes: number;
  estimatedTokens: number;
  /** Bytes over the larger peer's for the same mode (empty where no peer lists the same). */
  ratioToPeers?: number;
  /** Why a server could not be listed. */
  error?: string;
}

const require = createRequire(join(BENCH_DIR, 'package.json'));
const OURS = join(REPO_ROOT, 'packages', 'mcp-server', 'dist', 'cli.js');
const IVOTOBY = join(BENCH_DIR, 'node_modules', '@ivotoby', 'openapi-mcp-server', 'bin', 'mcp-server.js');
const GENERATOR = join(BENCH_DIR, 'node_modules', '.bin', 'openapi-mcp-generator');
/** A base URL nothing listens on: listing sends no API request. */
const NOWHERE = 'http://127.0.0.1:9/';

async function listOver(command: string, args: readonly string[]): Promise<unknown[]> {
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    stderr: 'ignore',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  const client = new Client({ name: 'bench-mcp-tools', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

async function measure(mode: string, server: string, command: string, args: readonly string[]): Promise<McpToolsRow> {
  try {
    const tools = await listOver(command, args);
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    return { mode, server, tools: tools.length, bytes, estimatedTokens: Math.round(bytes / 4) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { mode, server, tools: 0, bytes: 0, estimatedTokens: 0, error: message.slice(0, 120) };
  }
}

/** Writes the generator's server for `service` and returns the command that runs it. */
async function generatedServer(service: 'directory' | 'store' | 'trust'): Promise<[string, string[]]> {
  const out = join(WORK_DIR, `openapi-mcp-generator-${service}`);
  await rm(out, { recursive: true, force: true });
  const result = await runCommand(GENERATOR, ['-i', finalSpec(service), '-o', out, '-b', NOWHERE, '--force'], {
    cwd: BENCH_DIR,
  });
  if (result.exitCode !== 0) throw new Error(`openapi-mcp-generator failed: ${result.output.slice(-300)}`);
  return [process.execPath, [join(out, 'src', 'index.ts')]];
}

const OUR_MODES: [string, string[]][] = [
  ['default (all three APIs)', []],
  ['default, store writes allowed', ['--allow-writes', 'store']],
  ['store, products tool set', ['--services', 'store', '--store-toolsets', 'products']],
  ['store, one tool per operation', ['--services', 'store', '--store-toolsets', 'all']],
  ['directory', ['--services', 'directory']],
  ['trust', ['--services', 'trust']],
];

/** The peers run for these modes, on the service's final spec. */
const PEER_MODES: Record<string, 'directory' | 'store' | 'trust'> = {
  'store, one tool per operation': 'store',
  directory: 'directory',
  trust: 'trust',
};

export async function measureMcpTools(): Promise<McpToolsRow[]> {
  // The generated server imports these by name; fail early, naming the missing one.
  for (const name of ['@modelcontextprotocol/sdk/server/index.js', 'axios', 'zod', 'json-schema-to-zod', 'dotenv']) {
    require.resolve(name);
  }
  const rows: McpToolsRow[] = [];
  for (const [mode, args] of OUR_MODES) {
    rows.push(await measure(mode, '@agent-apis/mcp-server', process.execPath, [OURS, ...args]));
    const service = PEER_MODES[mode];
    if (!service) continue;
    rows.push(
      await measure(mode, '@ivotoby/openapi-mcp-server 1.16', process.execPath, [
        IVOTOBY,
        '--transport',
        'stdio',
        '--api-base-url',
        NOWHERE,
        '--openapi-spec',
        finalSpec(service),
      ]),
    );
    try {
      const [command, generatedArgs] = await generatedServer(service);
      rows.push(await measure(mode, 'openapi-mcp-generator 4.0', command, generatedArgs));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      rows.push({ mode, server: 'openapi-mcp-generator 4.0', tools: 0, bytes: 0, estimatedTokens: 0, error: message });
    }
  }
  return rows.map((row) => {
    const peers = rows.filter((other) => other.mode === row.mode && other.server !== '@agent-apis/mcp-server');
    const largest = Math.max(0, ...peers.map((peer) => peer.bytes));
    return largest > 0 && row.bytes > 0 ? { ...row, ratioToPeers: Math.round((row.bytes / largest) * 100) / 100 } : row;
  });
}

/** Issue 39's targets for `tools/list`. */
const MAX_DEFAULT_BYTES = 20_000;
const MAX_DIRECTORY_RATIO_TO_PEERS = 1.5;

/** The targets, each against the smaller peer (the stricter reading) of the same run. */
export function mcpToolsTargets(rows: readonly McpToolsRow[] | undefined) {
  const ours = (mode: string) => rows?.find((row) => row.mode === mode && row.server === '@agent-apis/mcp-server');
  const smallestPeer = (mode: string) => {
    const peers = (rows ?? []).filter(
      (row) => row.mode === mode && row.server !== '@agent-apis/mcp-server' && row.bytes > 0,
    );
    return peers.length > 0 ? Math.min(...peers.map((row) => row.bytes)) : undefined;
  };
  const check = (target: string, measured: string | undefined, met: boolean | undefined) =>
    measured === undefined || met === undefined
      ? { target, measured: '-', met: 'not measured' as const }
      : { target, measured, met };
  const byDefault = ours('default (all three APIs)');
  const all = ours('store, one tool per operation');
  const allPeer = smallestPeer('store, one tool per operation');
  const directory = ours('directory');
  const directoryPeer = smallestPeer('directory');
  return [
    check(
      `tools/list, default mode ≤ ${MAX_DEFAULT_BYTES / 1000} KB`,
      byDefault && `${byDefault.bytes} B`,
      byDefault && byDefault.bytes <= MAX_DEFAULT_BYTES,
    ),
    check(
      'tools/list, every store operation a tool ≤ a one-tool-per-operation generator (smaller peer)',
      all && allPeer ? `${all.bytes} B / ${allPeer} B` : undefined,
      all && allPeer ? all.bytes <= allPeer : undefined,
    ),
    check(
      `tools/list, directory ≤ ${MAX_DIRECTORY_RATIO_TO_PEERS}× the peers' (smaller peer)`,
      directory && directoryPeer ? `${Math.round((directory.bytes / directoryPeer) * 100) / 100}×` : undefined,
      directory && directoryPeer ? directory.bytes / directoryPeer <= MAX_DIRECTORY_RATIO_TO_PEERS : undefined,
    ),
  ];
}
