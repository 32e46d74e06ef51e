import { readFile } from 'node:fs/promises';
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

describe('README: the entries table', () => {
  it('lists every runtime name of each entry, and no other (error classes of the root as one)', async () => {
    const readme = await readFile(new URL('README.md', packageRoot), 'utf8');
    const listed = (entry: string): string[] => {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${entry}\` |`));
      const names = row?.split(' | ')[2]?.split('; types:')[0] ?? '';
      return [...names.matchAll(/`(\w+)`/g)].map(([, name]) => name as string).sort();
    };
    const runtime = async (module: Promise<object>, skip: (value: unknown) => boolean = () => false) =>
      Object.entries(await module)
        .filter(([, value]) => !skip(value))
        .map(([name]) => name)
        .sort();
    const isError = (value: unknown) => typeof value === 'function' && value.prototype instanceof Error;
    expect(listed('@agent-apis/core')).toEqual(await runtime(import('./index.js'), isError));
    expect(listed('@agent-apis/core/service')).toEqual(await runtime(import('./service.js')));
    expect(listed('@agent-apis/core/call')).toEqual(await runtime(import('./call.js')));
  });
});
