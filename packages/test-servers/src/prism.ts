import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, type ServerProcess, startServerProcess } from '@agent-apis/test-utils/processes';

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

export interface PrismServer extends ServerProcess {
  name: string;
  url: string;
  logFile: string;
}

const requirePrism = createRequire(import.meta.url);

/** The Prism CLI entry point of the pinned @stoplight/prism-cli. */
function prismBin(): string {
  const manifest = requirePrism.resolve('@stoplight/prism-cli/package.json');
  return join(dirname(manifest), 'dist', 'index.js');
}

/**
 * Starts Prism as a real server process on a loopback port (a free one unless `port` is given) and resolves once
 * it listens. Its output goes to `<logDir>/prism-<name>.log`; a start that fails or times out rejects with that log.
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

  const server = await startServerProcess({
    name: `${options.name}: Prism`,
    args,
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1', FORCE_COLOR: '0' },
    logFile,
    ready: (output) => output.includes('Prism is listening'),
    ...(options.readyTimeoutMs ? { timeoutMs: options.readyTimeoutMs } : {}),
  });
  return { name: options.name, url: `http://127.0.0.1:${port}`, logFile, ...server };
}
