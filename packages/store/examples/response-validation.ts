import { ResponseValidationError, StoreClient } from '@agent-apis/store';

const store = new StoreClient({ validateResponses: true });

try {
  const { product } = await store.api.getProduct({ path: { id: 42 } });
  console.log(`Product 42 is ${product?.name}`);
} catch (error) {
  if (!(error instanceof ResponseValidationError)) throw error;
  console.log(`Unexpected response: ${error.issues.map((issue) => issue.path).join(', ')}`);
}
