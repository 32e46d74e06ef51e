#!/usr/bin/env node
/**
 * `npx @agent-apis/mcp-server`: the tool server over stdio (default) or streamable HTTP (`--http`). Diagnostics go
 * to stderr (stdout carries the protocol); no credential is ever printed.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, readConfig, USAGE } from './env.js';
import { startHttpServer } from './http.js';
import { createAgentApisServer } from './server.js';

/** A connected node-redis client for the fleet options, from the optional `redis` peer. */
async function connectRedis(url: string) {
  let redis: {
    createClient(options: { url: string }): {
      connect(): Promise<unknown>;
      on(event: string, listener: (error: Error) => void): unknown;
    };
  };
  try {
    redis = (await import('redis')) as unknown as typeof redis;
  } catch {
    throw new ConfigError('a Redis URL is set but the `redis` package is not installed (npm install redis)');
  }
  const client = redis.createClient({ url });
  // Redis being down is not fatal: the clients fall back to their in-process budget and cache.
  client.on('error', (error) => console.error(`agent-apis-mcp-server: redis: ${error.message}`));
  await client.connect();
  return client;
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env);
  const redis = config.redisUrl ? ((await connectRedis(config.redisUrl)) as never) : undefined;
  const options = { ...config, redis };
  if (config.transport === 'http') {
    const server = await startHttpServer(options);
    console.error(`agent-apis-mcp-server: listening on ${server.url}`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const server = createAgentApisServer(options);
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  console.error(`agent-apis-mcp-server: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof ConfigError) console.error(USAGE);
  process.exitCode = 1;
});
