import { expectReadmeToEmbedEveryExample, runExample } from '@agent-apis/test-utils/readme';
import { describe, expect, it } from 'vitest';

const packageRoot = new URL('../', import.meta.url);

describe('README', () => {
  it('embeds every example file verbatim, and nothing else as an example', async () => {
    await expectReadmeToEmbedEveryExample(packageRoot);
  });
});

describe('README examples', () => {
  it('service-client: a row of the table sent by its function and by the bound api, inputs checked first', async () => {
    expect(await runExample(packageRoot, 'service-client')).toEqual([
      'function: Mug #42',
      'api: Mug #7, status 200',
      'Invalid request for getProduct: path.id must be an integer, got NaN',
    ]);
  });

  it('pagination: fetches only the pages it needs, and walks whole pages', async () => {
    expect(await runExample(packageRoot, 'pagination')).toEqual([
      'first four: 1, 2, 3, 4 (pages at offsets 0, 3)',
      'page of 3',
      'page of 3',
      'page of 1',
    ]);
  });
});
