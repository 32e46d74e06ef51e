import { getProduct, StoreClient } from '@agent-apis/store';

const store = new StoreClient({
  hooks: {
    onRetry: ({ operation, attempt, delayMs, reason }) =>
      console.log(`retrying ${operation} (attempt ${attempt}) in ${delayMs} ms after ${reason}`),
  },
});

// The parsed body next to the raw response, for its status and headers.
const { data, response } = await store.api.getProduct({ path: { id: 42 } }).withResponse();
console.log(`${data.product?.name} (status ${response.status})`);

// One operation imported alone: pass the configured client to it.
const same = await getProduct(store.client, { path: { id: 42 } });
console.log(`same product: ${same.product?.id === data.product?.id}`);
