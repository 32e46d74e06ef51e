/**
 * The calls every runtime of the ecosystem matrix makes, written as a consumer writes them: plain JavaScript
 * against the installed packages. `config` (written beside this file by the test) holds the loopback base URLs
 * and credentials; nothing is read from the environment, so Deno runs it without `--allow-env`.
 *
 * Each package's part runs on its own and reports `{ ok, detail }` or `{ ok: false, error }`, so one broken
 * package does not hide how the others fared.
 */
import { AgentApiError, NotFoundError } from '@agent-apis/core';
import { createTransport } from '@agent-apis/core/call';
import { VERSION } from '@agent-apis/core/service';
import { DirectoryClient } from '@agent-apis/directory';
import { DirectoryTools } from '@agent-apis/mcp';
import { StoreClient } from '@agent-apis/store';
import { TrustClient } from '@agent-apis/trust';

async function part(body) {
  try {
    return { ok: true, detail: await body() };
  } catch (error) {
    const name = error instanceof Error ? error.constructor.name : typeof error;
    return { ok: false, error: `${name}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Directory search and one lookup. */
export function directoryCalls(baseUrl, lookup) {
  return part(async () => {
    const directory = new DirectoryClient({ baseUrl });
    const found = await directory.search({ q: lookup.query, limit: 5 });
    const server = await directory.mcpServers.get({ owner: lookup.owner, repo: lookup.repo });
    return { hits: found.results.map((hit) => hit.name), server: `${server.owner}/${server.repo}` };
  });
}

/**
 * A body that sends its first bytes and then nothing: the call must end at its timeout, in every runtime (the read is
 * interrupted by cancelling the body's reader, so this checks each runtime's streams end a pending read then).
 */
async function stalledBody() {
  const stalling = async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"total":'));
        },
      }),
      { headers: { 'content-type': 'application/json' } },
    );
  const transport = createTransport({ fetch: stalling, timeout: 150, maxRetries: 0 });
  const started = Date.now();
  try {
    await transport.sendBuffered({ method: 'GET', url: 'https://stalled.example.test/v1/stats' });
    return 'answered';
  } catch (error) {
    return `${error?.constructor?.name} within ${Date.now() - started < 5_000 ? '5 s' : 'more than 5 s'}`;
  }
}

export async function runCalls(config) {
  const results = {};
  results.core = await part(async () => {
    const error = new AgentApiError('probe');
    return { version: VERSION, errorBase: error instanceof Error && error.name, stalledBody: await stalledBody() };
  });
  results.directory = await directoryCalls(config.directory.baseUrl, config.directory.lookup);
  results.trust = await part(async () => {
    const trust = new TrustClient({ baseUrl: config.trust.baseUrl, apiKey: config.trust.apiKey });
    const decision = await trust.decide(config.trust.domain);
    const guarded = await trust.guard(`https://${config.trust.domain}/docs`);
    let refused;
    try {
      await trust.guard('not a url');
    } catch (error) {
      refused = error instanceof AgentApiError ? 'AgentApiError' : `raw ${error?.constructor?.name}`;
    }
    return { action: decision.action, guarded: guarded.action, refused };
  });
  results.store = await part(async () => {
    const store = new StoreClient({
      baseUrl: config.store.baseUrl,
      login: config.store.login,
      authToken: config.store.authToken,
    });
    const products = await store.products.list({ limit: 2 }).toArray({ max: 3 });
    const first = products[0];
    const product = first ? await store.products.get(first.id) : undefined;
    let missing;
    try {
      await store.products.get(config.store.missingId);
    } catch (error) {
      missing = error instanceof NotFoundError ? `NotFoundError ${error.status}` : `other ${String(error)}`;
    }
    return { ids: products.map((p) => p.id), name: product?.name, missing };
  });
  results.mcp = await part(async () => {
    const tools = new DirectoryTools({ url: config.mcp.url });
    try {
      const answer = await tools.searchMcpServers({ query: config.directory.lookup.query, limit: 2 });
      return { blocks: answer.content.length };
    } finally {
      await tools.close();
    }
  });
  return results;
}
