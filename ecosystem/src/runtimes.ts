/**
 * The runtimes of the ecosystem matrix, each from a fixed place: Node 22.12 (the `engines` floor, the npm
 * `node-22` package), Node 24 (the repo's `node`), Bun and Deno from their npm packages (pinned in the workspace
 * catalog). Each one runs the consumer's `main.mjs` in a folder of the consumer project and hands back its one
 * line of JSON. Node 20 reached its end of life on 2026-04-30 and is below the floor (msw 3 needs 22.12).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

export interface Runtime {
  name: string;
  /** The command, and the arguments before the script. */
  command: string;
  args: string[];
  versionArgs: string[];
  /** The version out of the `versionArgs` output. */
  version(output: string): string;
}

const nodeVersion = (output: string) => output.trim().replace(/^v/, '');

export const PROCESS_RUNTIMES: readonly Runtime[] = [
  {
    name: 'Node 22 (floor)',
    command: join(packageDir('node-22'), 'bin', 'node'),
    args: [],
    versionArgs: ['--version'],
    version: nodeVersion,
  },
  {
    name: 'Node 24',
    command: join(packageDir('node'), 'bin', 'node'),
    args: [],
    versionArgs: ['--version'],
    version: nodeVersion,
  },
  {
    name: 'Bun',
    command: join(packageDir('bun'), 'bin', 'bun.exe'),
    args: [],
    versionArgs: ['--version'],
    version: (output) => output.trim(),
  },
  {
    // Network to loopback only, and no environment, file-read or other permission: the packages must not need one.
    name: 'Deno',
    // The binary its postinstall copied out of the platform package.
    command: join(packageDir('deno'), 'deno'),
    args: ['run', '--no-prompt', '--allow-net=127.0.0.1'],
    versionArgs: ['--version'],
    version: (output) => /deno (\S+)/.exec(output)?.[1] ?? output.trim(),
  },
];

/** A runtime that starts the tool server's bin: the arguments before the script. */
export interface ServerRuntime extends Runtime {
  serverArgs: string[];
}

/**
 * The same runtimes starting `@agent-apis/mcp-server` over stdio. Deno gets what a tool server needs: its settings
 * from the environment (`--allow-env`) and the network to loopback only.
 */
export const SERVER_RUNTIMES: readonly ServerRuntime[] = PROCESS_RUNTIMES.map((runtime) => ({
  ...runtime,
  serverArgs: runtime.name === 'Deno' ? [...runtime.args, '--allow-env'] : runtime.args,
}));

export interface Execution {
  stdout: string;
  stderr: string;
  /** Set when the command failed (exit code, signal or timeout). */
  failure?: string;
}

/**
 * Runs `command` with only a minimal environment (the packages get their settings as options, not variables),
 * plus `extra` (the outbound trap as proxy and npm registry, so a runtime that would download something fails).
 */
export function execute(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 60_000,
  extra: Record<string, string> = {},
): Promise<Execution> {
  const env = {
    ...extra,
    PATH: process.env.PATH ?? '',
    HOME: cwd,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    DENO_DIR: join(cwd, '.deno'),
    BUN_INSTALL_CACHE_DIR: join(cwd, '.bun'),
  };
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({
        stdout,
        stderr,
        ...(error ? { failure: error.killed ? `killed after ${timeoutMs} ms` : error.message } : {}),
      }),
    );
  });
}
