import { fetchStub, jsonResponse } from '@agent-apis/test-utils/fetch';
import { describe, expect, it } from 'vitest';
import { type Answer, AnswerPager, selectFields } from './answer.js';
import { connect, textOf } from './test-support.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Every page of `data` through `pager`, following cursors. */
function allPages(pager: AnswerPager, data: unknown): Answer[] {
  const pages = [pager.answer(data)];
  while (pages.at(-1)?.cursor) pages.push(pager.more(pages.at(-1)!.cursor!)!);
  return pages;
}

describe('fields', () => {
  it('keeps the dotted paths, walking through lists', () => {
    const products = [
      { product: { id: 1, name: 'Mug', price: 9, images: [{ url: 'a', alt: 'x' }] } },
      { product: { id: 2, name: 'Pot', price: 20, images: [] } },
    ];
    expect(selectFields(products, ['product.id', 'product.images.url'])).toEqual([
      { product: { id: 1, images: [{ url: 'a' }] } },
      { product: { id: 2, images: [] } },
    ]);
    expect(selectFields({ total: 2, results: [{ a: 1, b: 2 }] }, ['total', 'results.a'])).toEqual({
      total: 2,
      results: [{ a: 1 }],
    });
    expect(selectFields({ a: 1 }, [])).toEqual({ a: 1 });
  });
});

describe('the byte cap', () => {
  const records = Array.from({ length: 300 }, (_, id) => ({ id, name: `record ${id}`, text: 'é'.repeat(40) }));

  it('sends a small answer whole', () => {
    expect(new AnswerPager(1000).answer({ a: 1 })).toEqual({ data: { a: 1 } });
  });

  it('pages a long list by whole records, each page a JSON document under the cap, the rest by cursor', () => {
    const pager = new AnswerPager(2000);
    const pages = allPages(pager, records);
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(bytes(page)).toBeLessThanOrEqual(2000);
    expect(pages.flatMap((page) => page.data as unknown[])).toEqual(records);
    expect(pages[0]!.remaining).toBe(300 - (pages[0]!.data as unknown[]).length);
  });

  it('pages the list inside an envelope, keeping the envelope', () => {
    const pager = new AnswerPager(2000);
    const pages = allPages(pager, { total: 300, results: records });
    for (const page of pages) expect((page.data as { total: number }).total).toBe(300);
    expect(pages.flatMap((page) => (page.data as { results: unknown[] }).results)).toEqual(records);
  });

  it('sends an answer with no list as JSON string parts that join into the document', () => {
    const pager = new AnswerPager(1000);
    const document = { body: 'x"\\\n'.repeat(2000), other: { nested: true } };
    const pages = allPages(pager, document);
    for (const page of pages) expect(bytes(page)).toBeLessThanOrEqual(1000);
    expect(JSON.parse(pages.map((page) => page.part).join(''))).toEqual(document);
  });

  it('forgets a cursor once used, and an unknown one', () => {
    const pager = new AnswerPager(2000);
    const first = pager.answer(records);
    expect(pager.more(first.cursor!)).toBeDefined();
    expect(pager.more(first.cursor!)).toBeUndefined();
    expect(pager.more('nope')).toBeUndefined();
  });

  it('drops cursors after ten minutes', () => {
    let now = 0;
    const pager = new AnswerPager(2000, () => now);
    const first = pager.answer(records);
    now = 10 * 60_000 + 1;
    expect(pager.more(first.cursor!)).toBeUndefined();
  });
});

describe('answers through the server', () => {
  const credentials = { login: 'shop-login-canary', authToken: 'shop-token-canary-0123456789' };

  it('applies fields and the cap, and answer_more follows the cursor', async () => {
    const products = Array.from({ length: 60 }, (_, id) => ({
      product: { id, name: `Product ${id}`, description: 'd'.repeat(200) },
    }));
    const fetch = fetchStub(() => jsonResponse(products));
    const connected = await connect({
      store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch },
      maxAnswerBytes: 4000,
    });
    try {
      const call = (name: string, args: Record<string, unknown>) =>
        connected.client.callTool({ name, arguments: args });
      const small = await call('store_call_operation', { operationId: 'listProducts', fields: ['product.id'] });
      expect(small.structuredContent).toEqual({
        data: products.map(({ product }) => ({ product: { id: product.id } })),
      });
      const first = (await call('store_call_operation', { operationId: 'listProducts' })).structuredContent as Answer;
      expect(first.cursor).toEqual(expect.any(String));
      const second = (await call('answer_more', { cursor: first.cursor })).structuredContent as Answer;
      expect([...(first.data as unknown[]), ...(second.data as unknown[])]).toEqual(
        products.slice(0, (first.data as unknown[]).length + (second.data as unknown[]).length),
      );
      const expired = await call('answer_more', { cursor: 'unknown' });
      expect(expired.isError).toBe(true);
      expect(textOf(expired)).toMatch(/Unknown or expired cursor/);
    } finally {
      await connected.close();
    }
  });

  it('answers an API failure as a tool error saying what to do, without the credentials', async () => {
    const fetch = fetchStub(() =>
      jsonResponse({ message: `bad login ${credentials.login} token ${credentials.authToken}` }, { status: 401 }),
    );
    const connected = await connect({ store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch } });
    try {
      const result = await connected.client.callTool({
        name: 'store_call_operation',
        arguments: { operationId: 'listProducts' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^store\.listProducts \(GET \/products\.json\) failed: 401 AuthenticationError\. .*credentials were rejected/,
      );
      expect(textOf(result)).not.toContain(credentials.authToken);
      expect(textOf(result)).not.toContain(credentials.login);
    } finally {
      await connected.close();
    }
  });

  it('scrubs a token an answer echoes back (page after page), not the login', async () => {
    const products = Array.from({ length: 40 }, (_, id) => ({
      product: { id, name: `by ${credentials.login}`, note: `token ${credentials.authToken}` },
    }));
    const fetch = fetchStub(() => jsonResponse(products));
    const connected = await connect({
      store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch },
      maxAnswerBytes: 1500,
    });
    try {
      const first = await connected.client.callTool({
        name: 'store_call_operation',
        arguments: { operationId: 'listProducts' },
      });
      const cursor = (first.structuredContent as Answer).cursor;
      const second = await connected.client.callTool({ name: 'answer_more', arguments: { cursor } });
      for (const result of [first, second]) {
        expect(textOf(result)).not.toContain(credentials.authToken);
        expect(textOf(result)).toContain('token [REDACTED]');
        expect(textOf(result)).toContain(`by ${credentials.login}`);
      }
    } finally {
      await connected.close();
    }
  });

  it('answers bad arguments before sending, naming the argument', async () => {
    const fetch = fetchStub(() => jsonResponse([]));
    const connected = await connect({ store: { ...credentials, baseUrl: 'http://127.0.0.1:9/v1', fetch } });
    try {
      const result = await connected.client.callTool({
        name: 'store_call_operation',
        arguments: { operationId: 'getProduct', arguments: { id: 'twelve', colour: 'red' } },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('arguments.id must be an integer');
      expect(textOf(result)).toContain('arguments.colour is not a known property');
      const missing = await connected.client.callTool({
        name: 'store_call_operation',
        arguments: { operationId: 'nope' },
      });
      expect(textOf(missing)).toMatch(/no operation "nope"\. Find one with store_search_operations/);
      expect(fetch).not.toHaveBeenCalled();
    } finally {
      await connected.close();
    }
  });

  it('answers missing credentials with the variables to set', async () => {
    const connected = await connect({
      store: { baseUrl: 'http://127.0.0.1:9/v1', fetch: fetchStub(() => jsonResponse([])) },
    });
    try {
      const saved = { ...process.env };
      for (const name of ['STORE_LOGIN', 'STORE_AUTH_TOKEN', 'STORE_ACCESS_TOKEN']) delete process.env[name];
      const result = await connected.client.callTool({
        name: 'store_call_operation',
        arguments: { operationId: 'listProducts' },
      });
      Object.assign(process.env, saved);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/STORE_LOGIN/);
    } finally {
      await connected.close();
    }
  });
});
