/**
 * The bin over stdio ends with its client: when stdin ends, on SIGTERM, and when launched through a wrapper that
 * spawns it as npx does, with or without `--redis` (then against a real `redis-server`, whose connection must be
 * closed too). No duration is asserted: each wait has only a generous cap, after which the test fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { SERVER_NAME } from './version.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** How long a process may take to go before the test calls it stuck (a cap, not a measured bound). */
const CAP_MS = 20_000;
const FLEET_SECRET = 'a fleet secret for the stdio exit tests';
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stdio-exit', version: '1' } },
})}\n`;

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', DIRECTORY_BASE_URL: 'http://127.0.0.1:9', ...extra };
}

/** Resolves with how the process ended, or with `'stuck'` after {@link CAP_MS}. */
function ended(child: ChildProcess): Promise<{ code: number | null; signal: string | null } | 'stuck'> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('stuck'), CAP_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** Starts the bin and waits for its answer to `initialize`: it is serving. */
async function serving(args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [cli, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin?.write(INITIALIZE);
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"id":1')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code} before answering: ${stderr}`)));
  });
  return child;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills what a failed test left behind. */
function reap(...pids: (number | undefined)[]): void {
  for (const pid of pids) if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
}

describe('over stdio without Redis, or with Redis down', () => {
  it('exits when stdin ends', async () => {
    const child = await serving([], baseEnv());
    try {
      child.stdin?.end();
      expect(await ended(child)).toEqual({ code: 0, signal: null });
    } finally {
      reap(child.pid);
    }
  });

  it('serves with Redis down, and exits when stdin ends', async () => {
    // Nothing listens on port 1: the clients fall back to their in-process budget and cache while Redis is away.
    const env = baseEnv({ AGENT_APIS_REDIS_URL: 'redis://127.0.0.1:1', AGENT_APIS_FLEET_SECRET: FLEET_SECRET });
    const child = await serving([], env);
    try {
      child.stdin?.end();
      expect(await ended(child)).toEqual({ code: 0, signal: null });
    } finally {
      reap(child.pid);
    }
  });

  it('exits cleanly on SIGTERM and on SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = await serving([], baseEnv());
      try {
        child.kill(signal);
        // A clean exit (0), not death by the signal: the server closed what it held.
        expect(await ended(child), signal).toEqual({ code: 0, signal: null });
      } finally {
        reap(child.pid);
      }
    }
  });
});

describeWithRedis('over stdio with --redis', (redis) => {
  /** The server's connections as Redis lists them (it names them after itself). */
  async function serverConnections(): Promise<number> {
    const list = await redis.client.sendCommand<string>(['CLIENT', 'LIST']);
    return list.split('\n').filter((line) => line.includes(`name=${SERVER_NAME}`)).length;
  }

  const redisEnv = () => baseEnv({ AGENT_APIS_REDIS_URL: redis.server.url, AGENT_APIS_FLEET_SECRET: FLEET_SECRET });

  it('exits when stdin ends, and Redis sees its connection closed', async () => {
    const child = await serving([], redisEnv());
    try {
      expect(await serverConnections()).toBe(1);
      child.stdin?.end();
      expect(await ended(child)).toEqual({ code: 0, signal: null });
      expect(await serverConnections()).toBe(0);
    } finally {
      reap(child.pid);
    }
  });

  it('exits cleanly on SIGTERM, closing Redis', async () => {
    const child = await serving(['--redis', redis.server.url], redisEnv());
    try {
      child.kill('SIGTERM');
      expect(await ended(child)).toEqual({ code: 0, signal: null });
      expect(await serverConnections()).toBe(0);
    } finally {
      reap(child.pid);
    }
  });

  it('leaves no process behind when an MCP client closes an npx-style launch', async () => {
    // As npx does: a parent process spawns the bin on the same stdio, waits for it and does not forward signals.
    const wrapper = [
      "const { spawn } = require('node:child_process');",
      "const child = spawn(process.execPath, process.argv.slice(1), { stdio: 'inherit' });",
      "process.stderr.write('server pid ' + child.pid + '\\n');",
      "child.on('exit', (code) => process.exit(code ?? 1));",
    ].join('\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', wrapper, cli],
      env: redisEnv(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'stdio-exit', version: '1' });
    await client.connect(transport);
    // The launcher printed its child's pid before the server could answer; stderr may still be on its way.
    const deadline = Date.now() + CAP_MS;
    while (!/server pid \d+/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(/server pid (\d+)/.exec(stderr)?.[1]);
    try {
      expect(alive(pid)).toBe(true);
      expect(await serverConnections()).toBe(1);
      // The SDK's close: end stdin, then after a grace period SIGTERM the launcher (which does not pass it on).
      await client.close();
      while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(alive(pid), `server ${pid} outlived its launcher`).toBe(false);
      expect(await serverConnections()).toBe(0);
    } finally {
      reap(pid);
    }
  });
});
