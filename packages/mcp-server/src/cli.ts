#!/usr/bin/env node
/**
 * `npx @agent-apis/mcp-server`: the tool server over stdio (default) or streamable HTTP (`--http`). Diagnostics go
 * to stderr (stdout carries the protocol); no credential is ever printed. Over stdio it ends when stdin ends; in
 * either mode on SIGTERM or SIGINT, closing what it holds (the transport, the HTTP listener, Redis) first.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ServiceClients } from './clients.js';
import { ConfigError, readConfig, USAGE } from './env.js';
import { startHttpServer } from './http.js';
import { createAgentApisServer } from './server.js';
import { ToolCalls } from './tool-calls.js';

/** What to close on the way out, latest first. */
const closers: (() => unknown)[] = [];
let stopping = false;

/** Closes everything opened so far, then exits: nothing held (a Redis socket, a timer) keeps the process alive. */
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const close of closers.reverse()) {
    try {
      await close();
    } catch (error) {
      console.error(`agent-apis-mcp-server: while closing: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  process.exit();
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env);
  if (config.help) {
    console.log(USAGE);
    return;
  }
  // Listened to before Redis is reached, so a client that goes away while it connects still ends the server.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop());
  if (config.transport === 'stdio') {
    process.stdin.once('end', () => void stop());
    process.stdin.once('close', () => void stop());
  }
  const clients = await ServiceClients.open(config);
  closers.push(() => clients.close());
  if (config.transport === 'http') {
    const server = await startHttpServer(config, clients);
    closers.push(() => server.close());
    console.error(`agent-apis-mcp-server: listening on ${server.url}`);
    return;
  }
  const server = createAgentApisServer(new ToolCalls(config, clients));
  closers.push(() => server.close());
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  console.error(`agent-apis-mcp-server: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof ConfigError) console.error(USAGE);
  process.exitCode = 1;
  void stop();
});
