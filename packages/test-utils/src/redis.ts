/**
 * A real `redis-server` for tests and benchmarks: started on a free loopback port with nothing persisted,
 * stopped by its PID. Where the binary is not on PATH, `REDIS_MISSING` says why the tests are skipped.
 * {@link describeWithRedis} is the one setup of a test file's Redis: one server and one connected client per file.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
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

/** The Redis of one test file: its server, and one client connected to it. */
export interface FileRedis {
  /** The file's `redis-server` (kill and restart it to test an outage; the client reconnects by itself). */
  readonly server: RedisServer;
  /**
   * The file's one connection, as the running test may use it: every key is flushed before each test, and once the
   * test is over a command sent through it fails (as on a closed client), so a late write never lands in the next.
   */
  readonly client: RedisClientType;
}

/** What a client hands out apart from commands: these keep working after the test, everything else fails. */
const NOT_COMMANDS = new Set<PropertyKey>(['on', 'once', 'off', 'addListener', 'removeListener', 'listenerCount']);

/** The connection as one test sees it, until `close` (see {@link FileRedis.client}). */
function testView(connection: RedisClientType): { view: RedisClientType; close: () => void } {
  let closed = false;
  const view = new Proxy(connection, {
    get(target, name) {
      // node-redis keeps its state in private fields: everything runs on the client itself, never on the proxy.
      const value: unknown = Reflect.get(target, name, target);
      if (closed && (name === 'isReady' || name === 'isOpen')) return false;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        closed && !NOT_COMMANDS.has(name)
          ? Promise.reject(new Error(`Redis ${String(name)} after the test that sent it ended`))
          : value.apply(target, args);
    },
  });
  return {
    view,
    close: () => {
      closed = true;
    },
  };
}

/**
 * A `describe` block over one `redis-server` and one connection for all its tests: both start before the first
 * test, the data is flushed before each one, the test's view of the connection closes after it, and the connection
 * is closed and the server stopped after the last. Without `redis-server` on PATH the block is skipped, its title
 * saying why ({@link REDIS_MISSING}).
 */
export function describeWithRedis(title: string, body: (redis: FileRedis) => void): void {
  const missing = findRedisServer() === undefined;
  describe.skipIf(missing)(`${title}${missing ? ` (skipped: ${REDIS_MISSING})` : ''}`, () => {
    let server: RedisServer | undefined;
    let connection: RedisClientType | undefined;
    let current: ReturnType<typeof testView> | undefined;
    beforeAll(async () => {
      server = await startRedisServer();
      connection = createClient({ url: server.url });
      // A test that kills the server sees the outage in what it checks; the connection only reconnects.
      connection.on('error', () => undefined);
      await connection.connect();
    });
    beforeEach(async () => {
      if (!connection) return;
      await connection.flushAll();
      current = testView(connection);
    });
    afterEach(() => {
      current?.close();
      current = undefined;
    });
    afterAll(async () => {
      connection?.destroy();
      await server?.stop();
    });
    body({
      get server() {
        if (!server) throw new Error('the Redis server starts before the first test');
        return server;
      },
      get client() {
        if (!current) throw new Error('the Redis client is for tests, not for collecting them');
        return current.view;
      },
    });
  });
}
