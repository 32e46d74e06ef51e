import { createAgentApisServer } from '@agent-apis/mcp-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

// Base URLs and credentials come from the clients' environment variables (STORE_LOGIN, ENTROPY0_API_KEY, …).
const server = createAgentApisServer(); // read-only: the default
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(clientSide);

const found = await client.callTool({
  name: 'directory_search',
  arguments: { q: 'weather', limit: 3, fields: ['results.name', 'results.url'] },
});
console.log(JSON.stringify(found.structuredContent));

const decision = await client.callTool({
  name: 'trust_decide',
  arguments: { body: { target: { type: 'domain', value: 'example.com' } }, fields: ['decision.recommended_action'] },
});
console.log(JSON.stringify(decision.structuredContent));

// A write in a read-only server: refused before anything is sent, naming the option that would allow it.
const refused = await client.callTool({
  name: 'store_call_operation',
  arguments: { operationId: 'createProduct', arguments: { body: { product: { name: 'Mug', price: 9 } } } },
});
console.log(refused.isError, (refused.content as { text: string }[])[0]?.text);

await client.close();
