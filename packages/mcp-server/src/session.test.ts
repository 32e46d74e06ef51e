/**
 * An agent's session through the MCP SDK client against the stand-ins: search the directory, decide on a domain
 * with trust, list products, and, with the store's writes allowed, create and delete a product; then the same write
 * in the default (read-only) server, refused with its message before any request. With MCP_TRANSCRIPT=<file> the
 * session is written there as JSON lines (request and result of each call).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Mocks, startMocks, textOf } from './test-support.js';

const transcriptFile = process.env.MCP_TRANSCRIPT;
if (transcriptFile) writeFileSync(transcriptFile, '');
function record(server: string, name: string, args: unknown, result: unknown): void {
  if (transcriptFile)
    appendFileSync(transcriptFile, `${JSON.stringify({ server, call: { name, arguments: args }, result })}\n`);
}

let mocks: Mocks;
beforeAll(async () => {
  mocks = await startMocks();
});
afterAll(async () => {
  await mocks?.close();
});

describe('an agent session against the stand-ins', () => {
  it('searches, decides, lists, creates and deletes with writes allowed; the default server refuses the write', async () => {
    const writer = await connect({ ...mocks.options, allowWrites: ['store'] });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await writer.client.callTool({ name, arguments: args });
      record('--allow-writes store', name, args, result);
      return result;
    };
    try {
      const found = await call('directory_search', { q: 'weather', limit: 3, fields: ['results.name', 'results.url'] });
      expect((found.structuredContent as { data: { results: unknown[] } }).data.results.length).toBeGreaterThan(0);

      const decision = await call('trust_decide', {
        body: { target: { type: 'domain', value: 'example.com' } },
        fields: ['target.value', 'decision.recommended_action', 'decision.action_confidence'],
      });
      expect(decision.structuredContent).toMatchObject({ data: { target: { value: 'example.com' } } });
      expect(mocks.trust.scans).toBe(1);

      const search = await call('store_search_operations', { query: 'create product', limit: 2 });
      expect((search.structuredContent as { data: { operationId: string }[] }).data[0]?.operationId).toBe(
        'createProduct',
      );

      const before = await call('store_call_operation', {
        operationId: 'listProducts',
        arguments: { limit: 5 },
        fields: ['product.id', 'product.name'],
      });
      const countBefore = mocks.store.counts()['/products'];
      expect((before.structuredContent as { data: unknown[] }).data.length).toBeGreaterThan(0);

      const created = await call('store_call_write_operation', {
        operationId: 'createProduct',
        arguments: { body: { product: { name: 'Transcript mug', price: 12.5 } } },
        fields: ['product.id', 'product.name', 'product.price'],
      });
      expect(created.isError, textOf(created)).toBeFalsy();
      const id = (created.structuredContent as { data: { product: { id: number } } }).data.product.id;
      expect(mocks.store.counts()['/products']).toBe((countBefore ?? 0) + 1);

      const deleted = await call('store_call_write_operation', { operationId: 'deleteProduct', arguments: { id } });
      expect(deleted.isError, textOf(deleted)).toBeFalsy();
      expect(mocks.store.counts()['/products']).toBe(countBefore);
    } finally {
      await writer.close();
    }

    const readOnly = await connect(mocks.options);
    try {
      const sent = mocks.store.requests.length;
      const args = {
        operationId: 'createProduct',
        arguments: { body: { product: { name: 'Transcript mug', price: 12.5 } } },
      };
      const refused = await readOnly.client.callTool({ name: 'store_call_operation', arguments: args });
      record('default (read-only)', 'store_call_operation', args, refused);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        "Refused: store.createProduct (POST /products.json) is a write and this server is read-only for store. Nothing was sent. To allow the store API's writes, start the server with --allow-writes=store (env AGENT_APIS_MCP_ALLOW_WRITES=store; option allowWrites: ['store']).",
      );
      expect(mocks.store.requests.length).toBe(sent);
    } finally {
      await readOnly.close();
    }
  });
});
