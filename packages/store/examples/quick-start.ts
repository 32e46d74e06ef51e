import { StoreClient } from '@agent-apis/store';

// Credentials come from STORE_LOGIN and STORE_AUTH_TOKEN (or pass them as options).
const store = new StoreClient();

const product = await store.products.get(42);
console.log(`Product 42 is ${product.name}`);

for await (const order of store.orders.list({ 'status_filters[]': 'paid' })) {
  console.log(`Paid order ${order.id}: ${order.total} ${order.currency}`);
}
