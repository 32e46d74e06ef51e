import { consumerTypeErrors } from '@agent-apis/test-utils/consumer-types';
import { describe, expect, it } from 'vitest';

/** A consumer's program: every line compiles only if the published types are right; no `as`, no `!`. */
const CONSUMER = `import { operations, type ProductFields, StoreClient } from '@agent-apis/store';

const store = new StoreClient({ login: 'store-login', authToken: 'store-token', rateLimit: false });

export async function run(): Promise<string[]> {
  const lines: string[] = [];
  // Nested create inputs without envelopes: variants as records.
  const created = await store.products.create({ name: 'Mug', price: 10, variants: [{ price: 12, sku: 'MUG-L' }] });
  // @ts-expect-error the records of variants take no { variant } envelope
  await store.products.create({ name: 'Mug', variants: [{ variant: { price: 12 } }] });
  // Update params all optional where the API patches.
  const repriced = await store.products.update(created.id, { price: 9 });
  lines.push(\`\${repriced.name ?? ''} \${repriced.price ?? 0}\`);
  // One item type for iteration and for pages.
  for await (const page of store.products.list({ limit: 2 }).pages()) lines.push(...page.map((p) => p.name ?? ''));
  for await (const product of store.products.list()) {
    const same: ProductFields = product;
    lines.push(String(same.id));
  }
  // One call surface: the promise of every method has .withResponse() and .asResponse().
  const { data, response } = await store.products.get(created.id).withResponse();
  const counted = await store.products.count().asResponse();
  const viaApi = await store.api.getProduct({ path: { id: created.id } }).withResponse();
  const status: number = response.status;
  lines.push(\`\${data.id} \${status} \${counted.headers.get('content-type')} \${viaApi.data.product?.id}\`);
  // The rows of the operation table keep their literal types (the rows are JSON parsed at import).
  const method: 'GET' = operations.getProduct.method;
  const pathParams: readonly ['id'] = operations.getProduct.pathParams;
  // @ts-expect-error a row's method is its literal, not any string
  const wrongMethod: 'POST' = operations.getProduct.method;
  lines.push(method, ...pathParams, wrongMethod);
  return lines;
}
`;

describe('the published types, as a Node-only consumer compiles them', () => {
  // The program's @ts-expect-error line fails the check too if the mistake it marks ever compiles.
  it('need no DOM lib (lib ES2023, types node, skipLibCheck false) and fit the data: patch updates, pages of records, nested inputs, one call surface, literal operation rows', {
    // A backstop against a hang: a whole tsc run takes minutes on a loaded machine.
    timeout: 300_000,
  }, () => {
    expect(consumerTypeErrors(new URL('../', import.meta.url), CONSUMER)).toEqual([]);
  });
});
