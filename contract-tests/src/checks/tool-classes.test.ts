import { readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { describe, expect, it } from 'vitest';
import { firstId, readToolClasses, toolAnswer } from './tool-classes.ts';

describe('agent tool safety classes', () => {
  it.each(['store', 'directory'] as const)(
    '%s: every pinned tool has exactly one class, and no class names an unknown tool',
    async (service) => {
      const classes = await readToolClasses(service);
      const tools = (await readSyncedToolList(service)).list.tools.map((tool) => tool.name);
      expect(tools.filter((name) => !['read', 'write', 'dangerous'].includes(classes[name]?.safety ?? ''))).toEqual([]);
      const named = Object.values(classes).flatMap((c) => [
        ...Object.values(c.from ?? {}),
        ...(c.creates
          ? [c.creates.delete, c.creates.update ?? c.creates.delete, c.creates.list, c.creates.get ?? c.creates.list]
          : []),
      ]);
      expect([...Object.keys(classes), ...named].filter((name) => !tools.includes(name))).toEqual([]);
    },
  );

  it('classes by effect, not by hint: an order update is dangerous, record reads take their ids from a list', async () => {
    const store = await readToolClasses('store');
    expect(store.update_order?.safety).toBe('dangerous');
    expect(store.delete_product?.safety).toBe('write');
    expect(store.get_product).toEqual({ safety: 'read', from: { id: 'list_products' } });
    const readsNeedingIds = Object.entries(store).filter(
      ([name, c]) => c.safety === 'read' && name.startsWith('get_') && name !== 'get_store_info',
    );
    expect(readsNeedingIds.filter(([, c]) => !c.from?.id)).toEqual([]);
  });

  it('finds the first id of an answer, structured or as JSON text, and none in an empty list', () => {
    expect(
      firstId(toolAnswer({ structuredContent: { products: [{ product: { id: 12 } }, { product: { id: 13 } }] } })),
    ).toBe(12);
    expect(firstId(toolAnswer({ content: [{ type: 'text', text: '[{"order":{"id":5001}}]' }] }))).toBe(5001);
    expect(firstId(toolAnswer({ content: [{ type: 'text', text: '[]' }] }))).toBeUndefined();
    expect(toolAnswer({ content: [{ type: 'text', text: 'not json' }] })).toBeUndefined();
  });
});
