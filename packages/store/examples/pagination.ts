import { StoreClient } from '@agent-apis/store';

const store = new StoreClient();

// Every product, 100 per request; pages are fetched as the loop needs them.
for await (const product of store.products.list({ limit: 100 })) {
  console.log(`${product.id} ${product.name}`);
}

// At most 200 customers.
const customers = await store.customers.list().toArray({ max: 200 });
console.log(`${customers.length} customers`);

// Listings under a record take its id first.
const reviews = await store.products.reviews.list(42).toArray({ max: 20 });
console.log(`${reviews.length} reviews of product 42`);
