/**
 * Child processes and ports for tests: a free loopback port, a server of this process listening on one, a Node script
 * run to its end, waiting for a process to exit, and a Node server started as its own process with its output in a
 * log file (Prism, Verdaccio).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';

/** Asks the OS for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A server of this process on a loopback port: `http://127.0.0.1:<port>`, and a close that ends open connections. */
export interface LoopbackServer {
  port: number;
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts `server` (`node:http` or `node:net`) on a loopback port: `port`, or a free one. A port that cannot be had
 * rejects with the listen error (`EADDRINUSE` and its `port`).
 */
export async function listenOnLoopback(
  server: Server & { closeAllConnections?: () => void },
  port = 0,
): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the server has no port');
  return {
    port: address.port,
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** How a Node script ended: its exit code (null when killed), its output, and its last line of output as JSON. */
export interface ScriptRun<Result> {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last line of standard output, parsed (undefined when it is not JSON). */
  result: Result | undefined;
}

/**
 * Runs `node <args>` (in `cwd`) to its end; `onLine` sees each line of standard output as it comes. A script still
 * running after `deadlineMs` is killed, so a failed test leaves no process behind.
 */
export function runScript<Result>(
  args: readonly string[],
  options: { deadlineMs: number; cwd?: string; onLine?: (line: string) => void },
): Promise<ScriptRun<Result>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) options.onLine?.(line);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const deadline = setTimeout(() => child.kill('SIGKILL'), options.deadlineMs);
    deadline.unref();
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(deadline);
      let result: Result | undefined;
      try {
        result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Result;
      } catch {
        result = undefined;
      }
      resolve({ code, stdout, stderr, result });
    });
  });
}

/** Resolves when `child` has exited, killing it after `timeoutMs`. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A server running as its own Node process: its output so far (the log file), and a stop (SIGTERM, then SIGKILL). */
export interface ServerProcess {
  pid: number;
  log(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` with its output in `logFile`, and resolves once `ready` (asked every 50 ms with its standard
 * output so far) says it listens. A server that exits first, or does not listen within `timeoutMs` (default 60 s),
 * is stopped, and the start rejects with its `name` (e.g. `store: Prism`) and log.
 */
export async function startServerProcess(options: {
  name: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  ready: (output: string) => boolean | Promise<boolean>;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const log = createWriteStream(options.logFile);
  const child = spawn(process.execPath, options.args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const readLog = () => readFile(options.logFile, 'utf8').catch(() => '');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await waitForExit(child, 5_000);
    log.end();
  };
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  while (!(await options.ready(output))) {
    const failure =
      child.exitCode !== null
        ? `exited with code ${child.exitCode} before listening`
        : Date.now() > deadline
          ? `did not listen within ${timeoutMs} ms`
          : undefined;
    if (failure) {
      await stop();
      throw new Error(`${options.name} ${failure}.\n${await readLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { pid: child.pid ?? -1, log: readLog, stop };
}
