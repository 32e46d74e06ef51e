import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, waitForExit } from '@agent-apis/test-utils/processes';

export interface PrismOptions {
  /** A name for logs and messages, e.g. the service. */
  name: string;
  /** The OpenAPI document Prism serves. */
  spec: string;
  /** `mock` answers from the spec; `proxy` forwards to `upstream` and validates both directions. */
  mode?: 'mock' | 'proxy';
  upstream?: string;
  /** Mock only: dynamic (faker) responses for every call, and the seed that makes dynamic responses repeat. */
  dynamic?: boolean;
  seed?: string;
  /** Where the log file goes. */
  logDir: string;
  /** How long to wait for the server to listen. Large specs take seconds to load. */
  readyTimeoutMs?: number;
  /** The loopback port to listen on (default: a free one; fixed ports are for `pnpm mock`, never for tests). */
  port?: number;
}

export interface PrismServer {
  name: string;
  url: string;
  pid: number;
  logFile: string;
  /** The log so far, for failure messages. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

const requirePrism = createRequire(import.meta.url);

/** The Prism CLI entry point of the pinned @stoplight/prism-cli. */
function prismBin(): string {
  const manifest = requirePrism.resolve('@stoplight/prism-cli/package.json');
  return join(dirname(manifest), 'dist', 'index.js');
}

/**
 * Starts Prism as a real server process on a loopback port (a free one unless `port` is given) and resolves once
 * it listens.
 * Its output goes to `<logDir>/prism-<name>.log`; a start that fails or times out rejects with that log.
 */
export async function startPrism(options: PrismOptions): Promise<PrismServer> {
  const mode = options.mode ?? 'mock';
  await mkdir(options.logDir, { recursive: true });
  const logFile = join(options.logDir, `prism-${options.name}.log`);
  const port = options.port || (await freePort());
  const args = [prismBin(), mode, options.spec];
  if (mode === 'proxy') {
    if (!options.upstream) throw new Error(`${options.name}: proxy mode needs an upstream URL`);
    args.push(options.upstream, '--errors');
  }
  args.push('--host', '127.0.0.1', '--port', String(port));
  if (mode === 'mock' && options.dynamic) args.push('--dynamic');
  if (mode === 'mock' && options.seed) args.push('--seed', options.seed);

  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1', FORCE_COLOR: '0' },
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const url = `http://127.0.0.1:${port}`;
  const readLog = async () => readFile(logFile, 'utf8').catch(() => '');

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await waitForExit(child, 5_000);
    log.end();
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (true) {
    if (output.includes('Prism is listening')) break;
    if (child.exitCode !== null) {
      await stop();
      throw new Error(
        `${options.name}: Prism exited with code ${child.exitCode} before listening.\n${await readLog()}`,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `${options.name}: Prism did not listen within ${options.readyTimeoutMs ?? 60_000} ms.\n${await readLog()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (child.pid === undefined) throw new Error(`${options.name}: Prism has no pid`);
  return { name: options.name, url, pid: child.pid, logFile, log: readLog, stop };
}
