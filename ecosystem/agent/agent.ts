/**
 * An agent's first hour with the packages, written as a consumer project writes it (no casts, no `!`): search the
 * directory, guard each URL with trust, page through the store's products, create one with two variants, reprice
 * it, delete it, and call two tools of the store's agent tool server. Settings come from the environment
 * (`pnpm mock` prints them). The release test installs the packages by name, type-checks this file under
 * `tsconfig.json` (strict, `lib: ["ES2023"]`, `skipLibCheck: false`, `exactOptionalPropertyTypes`) and runs it.
 */
import { AgentApiError } from '@agent-apis/core';
import { DirectoryClient } from '@agent-apis/directory';
import { StoreTools } from '@agent-apis/mcp';
import { StoreClient } from '@agent-apis/store';
import { TrustClient } from '@agent-apis/trust';

const directory = new DirectoryClient();
const trust = new TrustClient();
const store = new StoreClient();
const tools = new StoreTools();

// Servers worth a look, each URL cleared by trust before the agent would contact it.
const found = await directory.search({ q: 'github', type: 'mcp', limit: 5 });
const cleared: string[] = [];
for (const hit of found.results) {
  try {
    const decision = await trust.guard(hit.url);
    cleared.push(`${hit.name}: ${decision.action}`);
  } catch (error) {
    if (!(error instanceof AgentApiError)) throw error;
    cleared.push(`${hit.name}: not cleared (${error.name})`);
  }
}

// The catalogue, a page at a time.
const names: string[] = [];
for await (const page of store.products.list({ limit: 50 }).pages()) {
  names.push(...page.map((product) => product.name ?? '(unnamed)'));
  if (names.length >= 200) break;
}

// One product with two variants, repriced, then removed.
const created = await store.products.create({
  name: 'agent-apis example mug',
  price: 12,
  status: 'disabled',
  variants: [
    { sku: 'EXAMPLE-MUG-S', price: 12 },
    { sku: 'EXAMPLE-MUG-L', price: 14 },
  ],
});
const repriced = await store.products.update(created.id, { price: 13 });
await store.products.delete(created.id);

// Two calls through the store's tool server.
const info = await tools.getStoreInfo();
const listed = await tools.listProducts({ limit: 5 });
await tools.close();

console.log(
  JSON.stringify({
    cleared,
    products: names.length,
    created: created.id,
    repricedTo: repriced.price,
    toolBlocks: info.content.length + listed.content.length,
  }),
);
