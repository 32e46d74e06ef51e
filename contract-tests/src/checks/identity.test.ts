import { describe, expect, it } from 'vitest';
import { identityMismatches, recordPointer } from './identity.ts';

describe('identity: the answer is the record asked for', () => {
  it('reads the key inside one record from the list pointer the operation table declares', () => {
    expect(recordPointer('/0/product/id')).toBe('/product/id');
    expect(recordPointer('/results/0/owner')).toBe('/owner');
    expect(recordPointer('/count')).toBeUndefined();
  });

  it('names the field when another record answers', () => {
    const keys = [{ parameter: 'id', pointer: '/product/id', value: 1103 }];
    expect(identityMismatches({ product: { id: 1103, name: 'x' } }, keys)).toEqual([]);
    expect(identityMismatches({ product: { id: '1103' } }, keys)).toEqual([]);
    expect(identityMismatches({ product: { id: 1101 } }, keys)).toEqual([
      { parameter: 'id', field: 'product.id', asked: 1103, answered: 1101 },
    ]);
  });

  it('compares every declared key, case aside, and leaves out keys the answer does not carry', () => {
    const keys = [
      { parameter: 'owner', pointer: '/owner', value: 'Acme' },
      { parameter: 'repo', pointer: '/repo', value: 'tool' },
    ];
    expect(identityMismatches({ owner: 'acme', repo: 'tool' }, keys)).toEqual([]);
    expect(identityMismatches({ owner: 'acme', repo: 'other' }, keys)).toHaveLength(1);
    expect(identityMismatches({ variant: { id: 3 } }, [{ parameter: 'id', pointer: '/product/id', value: 1 }])).toEqual(
      [],
    );
    // A list is not a lookup answer.
    expect(
      identityMismatches([{ product: { id: 2 } }], [{ parameter: 'id', pointer: '/product/id', value: 1 }]),
    ).toEqual([]);
  });
});
