import { StoreClient } from '@agent-apis/store';
import { getGetProductMockHandler, getMockHandlers } from '@agent-apis/store/msw';
import { setupServer } from 'msw/node';

// A fixed answer for getProduct; generated data for every other operation.
const server = setupServer(getGetProductMockHandler({ product: { id: 42, name: 'Mug' } }), ...getMockHandlers());
server.listen({ onUnhandledFrame: 'error' });

const store = new StoreClient({ login: 'test-login', authToken: 'test-auth-token' });
const { product } = await store.api.getProduct({ path: { id: 42 } });
console.log(`Product 42 is ${product?.name}`);

server.close();
