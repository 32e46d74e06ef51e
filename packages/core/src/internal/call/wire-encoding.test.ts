import { describe, expect, it } from 'vitest';
import { serializeQuery } from './wire-encoding.js';

describe('serializeQuery', () => {
  it('repeats exploded arrays, joins the others, spells objects as name[key] and skips undefined', () => {
    const query = serializeQuery(
      { ids: { required: false, type: 'array', explode: false }, tags: { required: false, type: 'array' } },
      { ids: [1, 2], tags: ['a b', 'c'], filter: { status: 'paid' }, skip: undefined },
    );
    expect(query).toBe('?ids=1%2C2&tags=a%20b&tags=c&filter[status]=paid');
  });
});
