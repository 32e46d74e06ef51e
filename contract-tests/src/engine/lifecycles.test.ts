import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { type StoreStandIn, startStoreStandIn } from '@agent-apis/test-servers/stand-ins/store';
import type { StoreRecord } from '@agent-apis/test-servers/stand-ins/store-writes';
import { startToolServer } from '@agent-apis/test-servers/tool-server';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContractSpec } from '../contract-spec/spec.ts';
import {
  createRunMarker,
  isOwnMarker,
  isStaleMarker,
  parseMarker,
  planLifecycles,
  RUN_MARKER,
  SWEEP_AFTER_MS,
} from './lifecycles.ts';
import { STORE_LIFECYCLES } from './lifecycles-store.ts';
import { runContractLive } from './live-run.ts';
import { MCP_CANARY } from './targets.ts';

const STORE = { login: 'standin-login', authToken: 'standin-token-5d1f' };
const OLD = '2026-01-01T00:00:00.000Z';
const OTHER_SECRET = 'ab'.repeat(12);
const oldMarker = `${RUN_MARKER} ${OLD} 4242 ${OTHER_SECRET}`;

describe('run markers', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  const two = new Date(now - 2 * 60 * 60_000).toISOString();

  it('a complete marker in the strict format, over an hour old, is stale; nothing else is', () => {
    expect(isStaleMarker(`${RUN_MARKER} ${two} 4242 ${OTHER_SECRET}`, now)).toBe(true);
    expect(isStaleMarker(`${RUN_MARKER} ${two} 4242 ${OTHER_SECRET} (updated)`, now)).toBe(true);
    // What `Date.parse` accepts is not a marker time.
    for (const word of ['2', 'X-1', '2019', '2026-11-22', '2026-11-22T10:00:00Z', 'Sat, 01 Jan 2026 00:00:00 GMT']) {
      expect(Number.isFinite(Date.parse(word)), word).toBe(true);
      expect(isStaleMarker(`${RUN_MARKER} ${word} 4242 ${OTHER_SECRET}`, now), word).toBe(false);
    }
    expect(isStaleMarker(`${RUN_MARKER} 2026-02-31T10:00:00.000Z 4242 ${OTHER_SECRET}`, now)).toBe(false);
    // Incomplete: no secret (the earlier suite's format), a short secret, extra words, another prefix.
    expect(isStaleMarker(`${RUN_MARKER} ${two} 4242`, now)).toBe(false);
    expect(isStaleMarker(`${RUN_MARKER} ${two} 4242 abcdef`, now)).toBe(false);
    expect(isStaleMarker(`${RUN_MARKER} ${two} 4242 ${OTHER_SECRET} sale`, now)).toBe(false);
    expect(isStaleMarker(`My ${RUN_MARKER} ${two} 4242 ${OTHER_SECRET}`, now)).toBe(false);
    // Younger than the threshold (a slow run of another process), or dated in the future.
    expect(
      isStaleMarker(`${RUN_MARKER} ${new Date(now - SWEEP_AFTER_MS + 60_000).toISOString()} 1 ${OTHER_SECRET}`, now),
    ).toBe(false);
    expect(isStaleMarker(`${RUN_MARKER} ${new Date(now + 86_400_000).toISOString()} 1 ${OTHER_SECRET}`, now)).toBe(
      false,
    );
    expect(isStaleMarker(undefined, now)).toBe(false);
    expect(isStaleMarker(42, now)).toBe(false);
  });

  it("each run draws its own secret; a record is the run's own only with that exact marker", () => {
    const a = createRunMarker();
    const b = createRunMarker();
    expect(a.secret).toMatch(/^[0-9a-f]{24}$/);
    expect(a.secret).not.toBe(b.secret);
    expect(parseMarker(a.text)).toEqual({ time: Date.parse(a.time), pid: process.pid, secret: a.secret });
    expect(isOwnMarker(a.text, a)).toBe(true);
    expect(isOwnMarker(a.updated, a)).toBe(true);
    expect(isOwnMarker(b.text, a)).toBe(false);
    expect(isOwnMarker(`${a.text} copy`, a)).toBe(false);
  });
});

describe('the store lifecycle plan', () => {
  it('covers every create classed write: a family, or a stated reason; at least 6 families', async () => {
    const spec = await loadContractSpec('store');
    const plan = planLifecycles({
      service: 'store',
      spec,
      profile: STORE_LIFECYCLES,
      writesAllowed: true,
      dangerousAllowed: new Set(),
    });
    const writeCreates = spec.operations.filter((op) => op.method === 'POST' && op.safety === 'write');
    const covered = new Set([
      ...STORE_LIFECYCLES.families.map((f) => f.create),
      ...Object.keys(STORE_LIFECYCLES.without),
    ]);
    expect(writeCreates.map((op) => op.id).filter((id) => !covered.has(id))).toEqual([]);
    const running = plan.families.map((f) => f.name);
    console.log(`store lifecycle families (${running.length}): ${running.join(', ')}`);
    expect(running.length).toBeGreaterThanOrEqual(6);
    // Every write-classed operation of a running family is sent by it; none of its operations is dangerous.
    expect(plan.families.flatMap((f) => f.dangerous)).toEqual([]);
    for (const op of spec.operations.filter((o) => o.safety === 'write')) {
      const reason = plan.skipReason(op);
      if (reason) expect(reason, op.id).toMatch(/no lifecycle|not sent live/);
    }
  });

  it('dangerous operations: only inside a family whose every dangerous operation is named, never alone', async () => {
    const spec = await loadContractSpec('store');
    const byId = (id: string) => spec.operations.find((op) => op.id === id) as (typeof spec.operations)[number];
    const named = new Set(['createPromotion', 'updatePromotion', 'createOrder', 'createHook']);
    const partly = planLifecycles({
      service: 'store',
      spec,
      profile: STORE_LIFECYCLES,
      writesAllowed: true,
      dangerousAllowed: named,
    });
    expect(partly.families.map((f) => f.name)).not.toContain('promotions');
    expect(partly.skipReason(byId('createPromotion'))).toMatch(
      /only inside the promotions lifecycle, with CONTRACT_ALLOW_DANGEROUS=createPromotion,updatePromotion,deletePromotion/,
    );
    expect(partly.skipReason(byId('createOrder'))).toMatch(/no lifecycle of this run creates and removes/);
    expect(partly.skipReason(byId('createHook'))).toMatch(/never sent live/);
    named.add('deletePromotion');
    const all = planLifecycles({
      service: 'store',
      spec,
      profile: STORE_LIFECYCLES,
      writesAllowed: true,
      dangerousAllowed: named,
    });
    expect(all.families.find((f) => f.name === 'promotions')?.dangerous).toEqual([
      'createPromotion',
      'updatePromotion',
      'deletePromotion',
    ]);
    expect(all.skipReason(byId('createPromotion'))).toBeUndefined();
    expect(all.skipReason(byId('createOrder'))).toMatch(/never sent live/);
    // Without the write switch nothing writes, dangerous or not.
    const readOnly = planLifecycles({
      service: 'store',
      spec,
      profile: STORE_LIFECYCLES,
      writesAllowed: false,
      dangerousAllowed: named,
    });
    expect(readOnly.skipReason(byId('createPromotion'))).toMatch(/CONTRACT_ALLOW_WRITES=store/);
    expect(readOnly.skipReason(byId('createProduct'))).toMatch(/CONTRACT_ALLOW_WRITES=store/);
  });
});

const contractLive = runContractLive;

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Records of the store's owner that look like markers of the suite; a write run must leave every one alone. */
function decoys(now: number): Record<string, StoreRecord[]> {
  const product = (id: number, name: string, status: string, price = 0) => ({ id, name, status, price, stock: 0 });
  return {
    '/products': [
      product(9001, `${RUN_MARKER} 2 clearance`, 'disabled'),
      product(9002, `${RUN_MARKER} 2019 archive`, 'disabled'),
      product(9003, `${RUN_MARKER} X-1 mug`, 'disabled'),
      // Enabled and priced, with a complete old-looking marker.
      product(9004, oldMarker, 'available', 19.9),
      // Another process's run, still going: ten minutes old.
      product(9005, `${RUN_MARKER} ${new Date(now - 10 * 60_000).toISOString()} 31337 ${'cd'.repeat(12)}`, 'disabled'),
      product(9006, `${RUN_MARKER} 2099-01-01T00:00:00.000Z 4242 ${OTHER_SECRET}`, 'disabled'),
      product(9007, `${RUN_MARKER} ${OLD} 4242`, 'disabled'),
    ],
    '/categories': [{ id: 9101, name: oldMarker, permalink: 'decoy-category' }],
    '/pages': [{ id: 9201, title: oldMarker, status: 'public', body: 'Published.' }],
    '/customers': [{ id: 9301, email: 'owner@example.org', status: 'approved', shipping_address: { name: oldMarker } }],
    '/custom_fields': [{ id: 9401, label: oldMarker, type: 'text', product_visibility: true }],
  };
}

/**
 * A loopback front for the store stand-in under a base URL whose path holds a key (`/t/<key>`): it forwards every
 * request, but refuses a product create with 422 and a message that echoes the full URL it was sent to, as some
 * servers do. A lifecycle step failing there must not carry that base URL into the report.
 */
async function echoingFront(store: StoreStandIn, key: string): Promise<{ url: string; close(): Promise<void> }> {
  const prefix = `/t/${key}`;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = (request.url ?? '/').slice(prefix.length);
    const self = `http://${request.headers.host}${request.url}`;
    if (request.method === 'POST' && path.startsWith('/products.json')) {
      response.writeHead(422, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ errors: { name: [`cannot be created at ${self}`] } }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${store.url}${path}`, {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
    });
    response.writeHead(answer.status, out);
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Collections that hold records (a collection a run created and emptied again counts as none). */
const nonEmpty = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));

async function storeWithDecoys(): Promise<{ store: StoreStandIn; seeded: Record<string, StoreRecord[]> }> {
  const seeded = decoys(Date.now());
  const store = await startStoreStandIn({ ...STORE, perSecond: 1000, perMinute: 100_000, records: seeded });
  running.push(store);
  return { store, seeded };
}

function storeEnv(store: StoreStandIn): Record<string, string> {
  return {
    STORE_BASE_URL: store.url,
    STORE_LOGIN: STORE.login,
    STORE_AUTH_TOKEN: STORE.authToken,
    CONTRACT_STORE_RATE_LIMIT: '1000/s,100000/min',
    CONTRACT_ALLOW_WRITES: 'store',
  };
}

/** What the decoys look like now, read through the stand-in's API. */
async function readBack(store: StoreStandIn, seeded: Record<string, StoreRecord[]>) {
  const authorization = `Basic ${Buffer.from(`${STORE.login}:${STORE.authToken}`).toString('base64')}`;
  const now: Record<string, unknown[]> = {};
  for (const [collection, records] of Object.entries(seeded)) {
    now[collection] = await Promise.all(
      records.map(async (record) => {
        const response = await fetch(`${store.url}${collection}/${record.id}.json`, { headers: { authorization } });
        const body = (await response.json()) as Record<string, unknown>;
        return response.ok ? Object.values(body)[0] : response.status;
      }),
    );
  }
  return now;
}

describe('write-enabled live runs against a store holding records that look like old markers', () => {
  it('≥ 6 families created and removed, counts equal, only its own records written, no decoy touched, nothing dangerous; a tool server answering an existing product first', async () => {
    const { store, seeded } = await storeWithDecoys();
    // A genuine leftover of an earlier run that crashed: created through the API, disabled, complete old marker.
    const authorization = `Basic ${Buffer.from(`${STORE.login}:${STORE.authToken}`).toString('base64')}`;
    const leftover = await fetch(`${store.url}/products.json`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ product: { name: oldMarker, status: 'disabled', price: 0 } }),
    });
    expect(leftover.status).toBe(200);
    const countsBefore = nonEmpty(store.counts());
    // The agent tool server answers create_product with an existing product listed before the new one.
    const existing = { id: 4101, name: 'Ceramic pour-over dripper', price: 24.9, status: 'available' };
    // The tool server takes the store's own token pair, as the platform's does. The earlier variable names hold
    // another pair: STORE_LOGIN + STORE_AUTH_TOKEN are set, so they are what the run (as `StoreTools`) sends.
    const tools = await startToolServer({
      tools: (await readSyncedToolList('store')).list.tools,
      credentials: { 'X-LOGIN-KEY': STORE.login, 'X-AUTH-TOKEN': STORE.authToken },
      answer: (tool, structured) =>
        tool === 'create_product' ? { products: [existing, structured.record] } : structured,
    });
    running.push(tools);

    const run = await contractLive(
      {
        ...storeEnv(store),
        STORE_MCP_URL: tools.url,
        STORE_MCP_LOGIN_KEY: MCP_CANARY.loginKey,
        STORE_MCP_AUTH_TOKEN: MCP_CANARY.authToken,
        CONTRACT_TOOL_CALLS_PER_SECOND: '100',
      },
      ['src/checks/store.contract.test.ts', 'src/checks/mcp.contract.test.ts'],
    );
    const coverage = await run.coverage('store');
    const lifecycles = coverage.entries.filter((e) => e.check.startsWith('lifecycle:'));
    const passed = lifecycles.filter((e) => e.outcome === 'passed');
    console.log(
      `write-enabled run: exit ${run.code}, ${passed.length} lifecycles passed of ${lifecycles.length}\n${passed.map((e) => `  ${e.check.slice(10)}: ${e.note}`).join('\n')}`,
    );
    console.log(
      `stand-in counts before ${JSON.stringify(countsBefore)}\n                after  ${JSON.stringify(nonEmpty(store.counts()))}`,
    );
    console.log(
      `writes to records the run did not create: ${JSON.stringify(store.foreignWrites)}, dangerous calls: ${JSON.stringify(store.dangerousCalls)}, requests: ${store.requests.length}, 429s: ${store.tooManyRequests}`,
    );
    const called = (tool: string) => tools.calls.filter((c) => c.tool === tool).map((c) => c.arguments.id);
    console.log(
      `tool server: update_product ${JSON.stringify(called('update_product'))}, delete_product ${JSON.stringify(called('delete_product'))}`,
    );
    // No write reached a record the run did not create; nothing dangerous was called; no decoy changed.
    expect(store.foreignWrites).toEqual([]);
    expect(store.dangerousCalls).toEqual([]);
    expect(await readBack(store, seeded)).toEqual(seeded);
    // The tool server: only the record carrying the run's marker was read back, renamed and deleted.
    expect(called('update_product')).toEqual([4201]);
    expect(called('delete_product')).toEqual([4201]);
    expect(called('get_product')).toContain(4201);
    expect(called('update_order')).toEqual([]);
    expect(run.output).not.toMatch(/FAIL/);
    expect(run.code).toBe(0);
    // Every family of the profile but the dangerous promotions, each leaving its counts as found.
    expect(passed.length).toBe(STORE_LIFECYCLES.families.length - 1);
    expect(lifecycles.filter((e) => e.outcome !== 'passed')).toEqual([]);
    for (const [family, counts] of Object.entries(coverage.records ?? {})) {
      expect(counts.after, family).toBe(counts.before);
    }
    // The crashed run's leftover is the only record swept.
    expect(coverage.records?.products).toMatchObject({ before: 10, after: 10, swept: 1 });
    expect(nonEmpty(store.counts())).toEqual({ ...countsBefore, '/products': (countsBefore['/products'] ?? 0) - 1 });
    expect(store.tooManyRequests).toBe(0);
  }, 240_000);

  it('a tool server whose create answer shows only an existing product: the lifecycle fails, that product is not renamed or deleted', async () => {
    const existing = { id: 4101, name: 'Ceramic pour-over dripper', price: 24.9, status: 'available' };
    const tools = await startToolServer({
      tools: (await readSyncedToolList('store')).list.tools,
      credentials: { 'X-LOGIN-KEY': MCP_CANARY.loginKey, 'X-AUTH-TOKEN': MCP_CANARY.authToken },
      answer: (tool, structured) => (tool === 'create_product' ? { product: existing } : structured),
    });
    running.push(tools);
    const run = await contractLive(
      {
        CONTRACT_ALLOW_WRITES: 'store',
        STORE_MCP_URL: tools.url,
        STORE_MCP_LOGIN_KEY: MCP_CANARY.loginKey,
        STORE_MCP_AUTH_TOKEN: MCP_CANARY.authToken,
        CONTRACT_TOOL_CALLS_PER_SECOND: '100',
      },
      ['src/checks/mcp.contract.test.ts'],
    );
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/create_product's answer shows a record carrying this run's marker/);
    const called = (tool: string) => tools.calls.filter((c) => c.tool === tool).map((c) => c.arguments.id);
    expect(called('update_product')).toEqual([]);
    // The record it did create was found in the list by its marker, read back, and deleted: nothing left behind.
    expect(called('delete_product')).toEqual([4201]);
  }, 120_000);

  it('a lifecycle step refused with a message echoing its URL: the failure is reported without the base URL', async () => {
    const { store } = await storeWithDecoys();
    const key = 'k_9f8e7d6c5b4a3e2d';
    const front = await echoingFront(store, key);
    running.push(front);
    const run = await contractLive({ ...storeEnv(store), STORE_BASE_URL: front.url }, [
      'src/checks/store.contract.test.ts',
    ]);
    const products = (await run.coverage('store')).entries.find((e) => e.check === 'lifecycle:products');
    // The step failed, and its message still says where (the base URL shown with its key masked).
    expect(products).toMatchObject({ outcome: 'failed', note: expect.stringMatching(/422/) });
    expect(products?.note).toMatch(/cannot be created at http:\/\/127\.0\.0\.1:\d+\/t\/\*\*\*\/products\.json/);
    expect(run.code).not.toBe(0);
    for (const [where, text] of [
      ['the lifecycle note', products?.note ?? ''],
      ['the output', run.output],
      ['the coverage file', JSON.stringify(await run.coverage('store'))],
      ['the evidence', JSON.stringify(run.evidence)],
    ] as const) {
      expect(text, where).not.toContain(front.url);
      expect(text, where).not.toContain(key);
    }
  }, 240_000);

  it("a store whose create answer names an existing product: that product is neither updated nor deleted, the run's own is found by its marker and removed", async () => {
    const seeded = decoys(Date.now());
    const store = await startStoreStandIn({
      ...STORE,
      perSecond: 1000,
      perMinute: 100_000,
      records: seeded,
      createAnswers: { '/products': 1101 },
    });
    running.push(store);
    const countsBefore = nonEmpty(store.counts());
    const authorization = `Basic ${Buffer.from(`${STORE.login}:${STORE.authToken}`).toString('base64')}`;
    const product = async () => (await fetch(`${store.url}/products/1101.json`, { headers: { authorization } })).json();
    const before = await product();
    const run = await contractLive(storeEnv(store), ['src/checks/store.contract.test.ts']);
    console.log(
      `hostile create answer: exit ${run.code}, writes to records the run did not create: ${JSON.stringify(store.foreignWrites)}`,
    );
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/products 1101: read back, it carries this run's marker/);
    const products = (await run.coverage('store')).entries.find((e) => e.check === 'lifecycle:products');
    expect(products).toMatchObject({ outcome: 'failed', note: expect.stringMatching(/products 1101: read back/) });
    expect(store.foreignWrites).toEqual([]);
    expect(await product()).toEqual(before);
    expect(nonEmpty(store.counts())).toEqual(countsBefore);
    expect(await readBack(store, seeded)).toEqual(seeded);
  }, 240_000);

  it('CONTRACT_ALLOW_DANGEROUS: only the promotions lifecycle on its own record, once each, with credentials; nothing left behind', async () => {
    const { store, seeded } = await storeWithDecoys();
    const countsBefore = nonEmpty(store.counts());
    const run = await contractLive(
      {
        ...storeEnv(store),
        CONTRACT_ALLOW_DANGEROUS: 'createPromotion,updatePromotion,deletePromotion,createOrder,createHook,createTax',
      },
      ['src/checks/store.contract.test.ts'],
    );
    expect(run.output).not.toMatch(/FAIL/);
    expect(run.code).toBe(0);
    const dangerous = store.requests.filter((r) => store.dangerousCalls.includes(r.operation ?? ''));
    console.log(
      `dangerous run: ${dangerous.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}; counts before ${JSON.stringify(countsBefore)} after ${JSON.stringify(nonEmpty(store.counts()))}`,
    );
    // Each dangerous operation once, with credentials and a valid request: no broken copy, no copy without them.
    expect(store.dangerousCalls.sort()).toEqual(['createPromotion', 'deletePromotion', 'updatePromotion']);
    expect(dangerous.every((r) => r.status === 200 && r.headers.includes('authorization'))).toBe(true);
    expect(nonEmpty(store.counts())).toEqual(countsBefore);
    expect(store.foreignWrites).toEqual([]);
    expect(await readBack(store, seeded)).toEqual(seeded);
    const coverage = await run.coverage('store');
    expect(coverage.entries.find((e) => e.check === 'lifecycle:promotions')?.outcome).toBe('passed');
    expect(coverage.entries.find((e) => e.operation === 'createOrder')?.note).toMatch(/never sent live/);
  }, 240_000);
});
