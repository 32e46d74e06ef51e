import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS } from './catalog.js';
import { annotationsOf, refusal } from './safety.js';
import { listTools } from './server.js';
import { type Connected, connect, textOf } from './test-support.js';
import { ToolCalls } from './tool-calls.js';

const credentials = { login: 'shop-login', authToken: 'shop-token-0123456789' };
let connected: Connected | undefined;
afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

describe('safety at dispatch', () => {
  it('refuses a write planted in a read-only server before any request, naming the option that allows it', async () => {
    const fetch = fetchStub(() => jsonResponse({ product: { id: 1 } }));
    connected = await connect({
      store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch },
      // The write is planted as a direct tool as well as through the call tool.
      storeToolsets: ['products'],
    });
    const viaCall = await connected.client.callTool({
      name: 'store_call_operation',
      arguments: { operationId: 'createProduct', arguments: { body: { product: { name: 'Mug', price: 9 } } } },
    });
    const direct = await connected.client.callTool({
      name: 'store_create_product',
      arguments: { body: { product: { name: 'Mug', price: 9 } } },
    });
    const remove = await connected.client.callTool({ name: 'store_delete_product', arguments: { id: 1 } });
    for (const result of [viaCall, direct, remove]) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/is a write and this server is read-only for store\. Nothing was sent/);
      expect(textOf(result)).toContain('--allow-writes=store');
      expect(textOf(result)).toContain('AGENT_APIS_MCP_ALLOW_WRITES=store');
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the same write once writes are allowed for the store', async () => {
    const fetch = fetchStub(() => jsonResponse({ product: { id: 7, name: 'Mug' } }));
    connected = await connect({
      store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch },
      allowWrites: ['store'],
    });
    const misrouted = await connected.client.callTool({
      name: 'store_call_operation',
      arguments: { operationId: 'createProduct', arguments: { body: { product: { name: 'Mug', price: 9 } } } },
    });
    expect(textOf(misrouted)).toContain('call it with store_call_write_operation');
    expect(fetch).not.toHaveBeenCalled();
    const result = await connected.client.callTool({
      name: 'store_call_write_operation',
      arguments: { operationId: 'createProduct', arguments: { body: { product: { name: 'Mug', price: 9 } } } },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ data: { product: { id: 7, name: 'Mug' } } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('allows a dangerous operation only by its id, not by allowing writes', async () => {
    const fetch = fetchStub(() => jsonResponse({ hook: { id: 3 } }));
    const args = {
      operationId: 'createHook',
      arguments: { body: { hook: { event: 'order_paid', url: 'https://example.com/h' } } },
    };
    connected = await connect({
      store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch },
      allowWrites: ['store'],
    });
    const refused = await connected.client.callTool({ name: 'store_call_write_operation', arguments: args });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('--allow-dangerous=store.createHook');
    expect(fetch).not.toHaveBeenCalled();
    await connected.close();
    connected = await connect({
      store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch },
      allowDangerous: ['store.createHook'],
    });
    const allowed = await connected.client.callTool({ name: 'store_call_write_operation', arguments: args });
    expect(textOf(allowed)).not.toContain('Refused');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('the read call tool is read-only; the write call tool is listed only when store writes are allowed', () => {
    const annotations = (options: object) =>
      new Map(listTools(new ToolCalls(options)).map((tool) => [tool.name, tool.annotations]));
    const readOnly = annotations({});
    expect(readOnly.get('store_call_operation')).toEqual({ readOnlyHint: true });
    expect(readOnly.has('store_call_write_operation')).toBe(false);
    expect([...readOnly.values()].every((hints) => hints?.readOnlyHint === true)).toBe(true);
    for (const options of [{ allowWrites: ['store'] }, { allowDangerous: ['store.createHook'] }]) {
      const writes = annotations(options);
      expect(writes.get('store_call_operation')).toEqual({ readOnlyHint: true });
      expect(writes.get('store_call_write_operation')).toEqual({ readOnlyHint: false, destructiveHint: true });
    }
    expect(annotations({ allowWrites: ['directory'] }).has('store_call_write_operation')).toBe(false);
  });

  it('classes every operation from the contract, trust’s decide as a quota-spending read', () => {
    const classOf = (service: 'store' | 'trust' | 'directory', id: string) =>
      OPERATIONS[service].find((operation) => operation.id === id)?.safety;
    expect(classOf('trust', 'decide')).toBe('spends-quota');
    expect(classOf('store', 'createProduct')).toBe('write');
    expect(classOf('store', 'createHook')).toBe('dangerous');
    expect(classOf('store', 'calculateFulfillmentRates')).toBe('read');
    expect(OPERATIONS.directory.every((operation) => operation.safety === 'read')).toBe(true);
    const decide = OPERATIONS.trust.find((operation) => operation.id === 'decide')!;
    expect(refusal('trust', decide, {})).toBeUndefined();
  });

  it('derives the MCP annotations from the class', async () => {
    expect(annotationsOf('read', 'GET')).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(annotationsOf('spends-quota', 'POST')).toMatchObject({ readOnlyHint: true, idempotentHint: false });
    expect(annotationsOf('write', 'POST')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(annotationsOf('write', 'DELETE')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(annotationsOf('dangerous', 'POST')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    connected = await connect({ storeToolsets: ['products'] });
    const { tools } = await connected.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // Listed hints leave out the protocol's defaults (readOnlyHint false, destructiveHint true, openWorldHint true).
    expect(byName.get('trust_decide')?.annotations).toEqual({ readOnlyHint: true });
    expect(byName.get('directory_search')?.annotations).toEqual({ readOnlyHint: true });
    expect(byName.get('store_delete_product')?.annotations).toEqual({ idempotentHint: true });
    expect(byName.get('store_create_product')?.annotations).toEqual({ destructiveHint: false });
    expect(byName.get('store_list_products')?.annotations).toEqual({ readOnlyHint: true });
  });
});
