/** The bin as a user runs it (the built `dist/cli.js`): stdio by default, configuration errors with the usage. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { readConfig } from './env.js';
import { textOf } from './test-support.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = promisify(execFile);

describe('agent-apis-mcp-server', () => {
  it('serves over stdio, read-only unless the environment allows writes', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, '--store-toolsets', 'products'],
        env: {
          PATH: process.env.PATH ?? '',
          STORE_LOGIN: 'l',
          STORE_AUTH_TOKEN: 't',
          STORE_BASE_URL: 'http://127.0.0.1:9/v1',
        },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('store_create_product');
      const refused = await client.callTool({ name: 'store_delete_product', arguments: { id: 1 } });
      expect(textOf(refused)).toContain('--allow-writes=store');
    } finally {
      await client.close();
    }
  });

  it('exits 1 with the usage on a bad option', async () => {
    await expect(run(process.execPath, [cli, '--allow-writes', 'shop'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('unknown service shop'),
    });
  });

  it('prints the usage on --help and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const { stdout } = await run(process.execPath, [cli, flag], { timeout: 20_000 });
      expect(stdout).toContain('usage: agent-apis-mcp-server');
      expect(stdout).toContain('AGENT_APIS_FLEET_SECRET');
    }
  });

  it('refuses --redis without the fleet secret at start, naming AGENT_APIS_FLEET_SECRET', async () => {
    // Nothing listens on port 1: the refusal comes before any connection is tried.
    const env = { PATH: process.env.PATH ?? '', AGENT_APIS_FLEET_SECRET: 'short' };
    for (const args of [
      ['--redis', 'redis://127.0.0.1:1'],
      ['--http', '--port', '0', '--redis', 'redis://127.0.0.1:1'],
    ]) {
      const started = run(process.execPath, [cli, ...args], { env, timeout: 20_000 });
      await expect(started, args.join(' ')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('AGENT_APIS_FLEET_SECRET'),
      });
    }
  });

  it('refuses --http on a host that is not loopback without a token, naming AGENT_APIS_MCP_TOKEN', async () => {
    const env = { PATH: process.env.PATH ?? '' };
    const started = run(process.execPath, [cli, '--http', '--host', '0.0.0.0', '--port', '0'], {
      env,
      timeout: 20_000,
    });
    await expect(started).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('AGENT_APIS_MCP_TOKEN') });
    const config = readConfig(['--http', '--host', '0.0.0.0', '--allow-origin', 'https://app.example'], {
      AGENT_APIS_MCP_TOKEN: 'a-long-random-token',
      AGENT_APIS_MCP_MAX_HELD_BYTES: '1000000',
    });
    expect(config).toMatchObject({
      token: 'a-long-random-token',
      allowedOrigins: ['https://app.example'],
      maxHeldBytes: 1_000_000,
    });
    expect(() => readConfig(['--allow-origin', 'app.example/x'], {})).toThrow(/--allow-origin takes origins/);
  });

  it('reads flags over the environment', () => {
    const config = readConfig(['--allow-writes', 'store'], {
      AGENT_APIS_MCP_ALLOW_WRITES: 'trust',
      AGENT_APIS_MCP_ALLOW_DANGEROUS: 'store.createHook, store.deleteStore',
      AGENT_APIS_MCP_STORE_TOOLSETS: 'products,orders',
    });
    expect(config).toMatchObject({
      transport: 'stdio',
      allowWrites: ['store'],
      allowDangerous: ['store.createHook', 'store.deleteStore'],
      storeToolsets: ['products', 'orders'],
      port: 3333,
    });
    expect(readConfig(['--http'], {}).transport).toBe('http');
    expect(() => readConfig([], { AGENT_APIS_MCP_ALLOW_DANGEROUS: 'store.*' })).toThrow(/<service>\.<operationId>/);
    expect(() => readConfig(['--store-toolsets', 'nope'], {})).toThrow(/unknown store tool set nope/);
  });
});
