import { startHttpServer } from '@agent-apis/mcp-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Streamable HTTP on loopback; the store's writes allowed. Port 0 picks a free port (the bin's default is 3333).
const server = await startHttpServer({ port: 0, allowWrites: ['store'] });

// Each session may bring its own credentials in the initialize request's headers.
const transport = new StreamableHTTPClientTransport(new URL(server.url), {
  requestInit: {
    headers: {
      'X-Store-Login': process.env.STORE_LOGIN ?? '',
      'X-Store-Auth-Token': process.env.STORE_AUTH_TOKEN ?? '',
    },
  },
});
const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(transport);

const created = await client.callTool({
  name: 'store_call_write_operation',
  arguments: {
    operationId: 'createProduct',
    arguments: { body: { product: { name: 'Mug', price: 9.5 } } },
    fields: ['product.id', 'product.name'],
  },
});
const { product } = (created.structuredContent as { data: { product: { id: number; name: string } } }).data;
console.log('created', product.name);

const deleted = await client.callTool({
  name: 'store_call_write_operation',
  arguments: { operationId: 'deleteProduct', arguments: { id: product.id } },
});
console.log('deleted', !deleted.isError);

await client.close();
await server.close();
