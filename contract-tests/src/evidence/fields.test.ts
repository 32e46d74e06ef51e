import { describe, expect, it } from 'vitest';
import { FieldPresence, presentFields, recordsOf } from './fields.ts';

describe('field presence', () => {
  it('names nested fields and the fields every array element carries', () => {
    const fields = presentFields({
      product: { id: 1, price: 3, variants: [{ sku: 'a', stock: 1 }, { sku: 'b' }], note: null },
    });
    expect([...fields].sort()).toEqual([
      'product',
      'product.id',
      'product.price',
      'product.variants',
      'product.variants[].sku',
    ]);
  });

  it('keeps only the fields present in every record: a price missing from one record is not always present', () => {
    const presence = new FieldPresence();
    presence.add({ product: { id: 1, price: 3 } });
    presence.add({ product: { id: 2 } });
    expect(presence.always()).toEqual(['product', 'product.id']);
    expect(presence.records).toBe(2);
  });

  it('reads the records of a list, of an envelope and of a single answer', () => {
    expect(recordsOf([{ a: 1 }, { a: 2 }])).toHaveLength(2);
    expect(recordsOf({ count: 2, results: [{ a: 1 }, { a: 2 }] })).toHaveLength(2);
    expect(recordsOf({ product: { id: 1 } })).toEqual([{ product: { id: 1 } }]);
  });

  it('costs bounded work on a hostile, deeply nested answer', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 1000; i++) deep = { next: deep };
    expect(presentFields(deep).size).toBeLessThanOrEqual(400);
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, i]));
    expect(presentFields(wide).size).toBe(400);
  });
});
