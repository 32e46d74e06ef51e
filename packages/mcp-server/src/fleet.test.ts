/**
 * One budget: the server (the bin, in its own process, `--redis`) and a REST client (this process, `rateLimit.redis`)
 * call the rate-limited store stand-in (20/s, 800/min) at once through one real `redis-server`; together they
 * keep to the store's limit, so every call is answered without a 429 storm.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StoreClient } from '@agent-apis/store';
import { type LimitedStore, startLimitedStore } from '@agent-apis/test-utils/limited-store';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CALLS_EACH = 40;
describeWithRedis('server and REST client through one Redis', (redis) => {
  let store: LimitedStore;
  beforeAll(async () => {
    store = await startLimitedStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('share the store’s budget in one set of Redis keys: every call answered and accepted', async () => {
    const login = `mcp-fleet-${Date.now()}`;
    const child = spawn(process.execPath, [cli, '--http', '--port', '0'], {
      env: {
        PATH: process.env.PATH ?? '',
        STORE_BASE_URL: store.url,
        STORE_LOGIN: login,
        STORE_AUTH_TOKEN: 'fleet-test-token',
        AGENT_APIS_REDIS_URL: redis.server.url,
        AGENT_APIS_FLEET_SECRET: 'fleet secret of the mcp-server fleet test',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const redisClient = redis.client;
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const found = /listening on (\S+)/.exec(stderr);
          if (found?.[1]) resolve(found[1]);
        });
        child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
      });
      const rest = new StoreClient({
        baseUrl: store.url,
        login,
        authToken: 'fleet-test-token',
        rateLimit: { redis: redisClient as never },
      });
      const mcp = new Client({ name: 'fleet-test', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(url)));

      const restCalls = Array.from({ length: CALLS_EACH }, () => rest.api.listProducts().then(() => 'ok'));
      const toolCalls = Array.from({ length: CALLS_EACH }, () =>
        mcp
          .callTool({ name: 'store_call_operation', arguments: { operationId: 'listProducts' } })
          .then((result) => (result.isError ? JSON.stringify(result.content) : 'ok')),
      );
      const outcomes = await Promise.all([...restCalls, ...toolCalls]);
      await mcp.close();
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
      console.log(`fleet: ${store.accepted.length} accepted, ${store.rejected.length} × 429`);
      expect(store.accepted).toHaveLength(2 * CALLS_EACH);
      // The budget both processes drew from is one set of Redis keys for this store: no 429 count is asserted (on a
      // loaded machine arrival jitter can put a granted request into the server's next second; the figure goes to
      // stdout above and the fleet's share to `pnpm bench workers`).
      const budgetKeys = (await redisClient.keys('*')).filter((key) => key.includes(store.url));
      expect(budgetKeys.length).toBeGreaterThan(0);
      for (const key of budgetKeys) expect(key).not.toContain('fleet-test-token');
    } finally {
      child.kill();
    }
  }, 120_000);
});
