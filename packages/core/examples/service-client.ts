import type { Operation, OperationClient } from '@agent-apis/core';
// What a client needs before its first call, as the service packages and the generated functions import it.
import { ApiClient, bindOperations, sendOperation } from '@agent-apis/core/service';

// One row of an operation table, as codegen writes it into a service's `operations.gen.ts`.
const getProductOperation = {
  id: 'getProduct',
  method: 'GET',
  path: '/products/{id}.json',
  pathParams: ['id'],
  pathTypes: { id: { type: 'integer' } },
} as const satisfies Operation;

// A stand-in server for the example; a service client passes nothing and sends with the global fetch.
const fetch: typeof globalThis.fetch = async (input) => {
  const id = /products\/(\d+)/.exec(input instanceof Request ? input.url : String(input))?.[1];
  return Response.json({ product: { id: Number(id), name: 'Mug' } });
};

const client = new ApiClient(
  { fetch, timeout: 10_000 },
  {
    client: 'ExampleClient',
    baseUrl: 'https://api.example.test/v1',
    authHeaders: { authorization: 'Bearer example-token' },
    redactSecrets: ['example-token'],
    loadValidators: async () => ({ validators: {} }),
    validatorsEntry: '@agent-apis/example/validators',
  },
);

// A per-operation function, as codegen writes it into `api.gen.ts`: tree-shakable, typed, over the same row.
type Product = { product: { id: number; name: string } };
function getProduct(on: OperationClient, options: { path: { id: number }; timeout?: number }) {
  return sendOperation<Product>(on, getProductOperation, options);
}

const one = await getProduct(client, { path: { id: 42 } });
console.log(`function: ${one.product.name} #${one.product.id}`);

// The bound table, as a client's `api`: each call sends client.request(table[id], options) directly.
const api = bindOperations<{ getProduct: typeof getProduct }, { getProduct: typeof getProductOperation }>(
  { getProduct: getProductOperation },
  client,
);
const { data, response } = await api.getProduct({ path: { id: 7 }, timeout: 2_000 }).withResponse();
console.log(`api: ${data.product.name} #${data.product.id}, status ${response.status}`);

// Inputs are checked against the row before anything is sent.
await getProduct(client, { path: { id: Number.NaN } }).catch((error: Error) => console.log(error.message));
