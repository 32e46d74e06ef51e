/**
 * The store's resource methods as an application uses them: list products, create one with two variants,
 * change its price and delete it. Nothing here reaches for `store.api`, casts a type, or guards the id of a
 * record the API has just created. The consumer test type-checks it; `pnpm bench` times that type check.
 */
import type { StoreClient } from '@agent-apis/store';

export async function restockMugs(store: StoreClient): Promise<string[]> {
  const log: string[] = [];
  for await (const product of store.products.list({ limit: 50 })) {
    if (product.name?.startsWith('Mug')) log.push(`listed ${product.id} ${product.name}`);
  }

  const mug = await store.products.create({ name: 'Enamel mug', price: 12.5, status: 'available' });
  const red = await store.products.variants.create(mug.id, { price: 12.5, sku: 'MUG-RED', stock: 10 });
  const blue = await store.products.variants.create(mug.id, { price: 13, sku: 'MUG-BLUE', stock: 4 });
  log.push(`created ${mug.id} with variants ${red.id} and ${blue.id}`);

  const repriced = await store.products.update(mug.id, { name: mug.name ?? 'Enamel mug', price: 14 });
  log.push(`repriced ${repriced.id} to ${repriced.price}`);

  await store.products.delete(mug.id, { signal: AbortSignal.timeout(10_000) });
  log.push(`deleted ${mug.id}`);
  return log;
}
