/**
 * A real `redis-server` for tests and benchmarks: started on a free loopback port with nothing persisted,
 * stopped by its PID. Where the binary is not on PATH, `REDIS_MISSING` says why the tests are skipped.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { freePort } from './processes.ts';

/** The one-line reason fleet tests give when they are skipped. */
export const REDIS_MISSING = 'redis-server is not on PATH (apt-get install redis-server)';

/** The path of `redis-server`, or undefined when it is not installed. */
export function findRedisServer(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A running server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  pid: number;
  /** Kills the server at once (SIGKILL), as a crash would; resolves once it exited. */
  kill(): Promise<void>;
  /** Starts a fresh server on the same port (after `kill`), empty. */
  restart(): Promise<void>;
  /** Stops the server (SIGTERM by PID); resolves once it exited. */
  stop(): Promise<void>;
}

function launch(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)));
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, signal);
  return done;
}

/** Starts `redis-server` on a free loopback port; throws with {@link REDIS_MISSING} when it is not installed. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = findRedisServer();
  if (!binary) throw new Error(REDIS_MISSING);
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      let child = await launch(binary, port);
      const server: RedisServer = {
        url: `redis://127.0.0.1:${port}`,
        port,
        get pid() {
          return child.pid ?? -1;
        },
        kill: () => exited(child, 'SIGKILL'),
        restart: async () => {
          child = await launch(binary, port);
        },
        stop: () => exited(child, 'SIGTERM'),
      };
      return server;
    } catch (error) {
      // Another process took the port between the probe and the launch: try another one.
      lastError = error;
    }
  }
  throw lastError;
}
