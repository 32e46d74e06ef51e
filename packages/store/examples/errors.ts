import { APIError, NotFoundError, StoreClient } from '@agent-apis/store';

const store = new StoreClient();

try {
  await store.api.getProduct({ path: { id: 999_999 } });
} catch (error) {
  if (error instanceof NotFoundError) {
    console.log(`No such product: ${error.message}`);
  } else if (error instanceof APIError) {
    console.log(`The store answered ${error.status} on ${error.operation}`);
  } else {
    throw error;
  }
}
