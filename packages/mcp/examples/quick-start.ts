import { DirectoryTools, StoreTools } from '@agent-apis/mcp';

// The directory's tool server needs no key; its address is not published, so it comes from DIRECTORY_MCP_URL.
const directory = new DirectoryTools();
const found = await directory.searchMcpServers({ query: 'postgres', official: true, limit: 3 });
for (const block of found.content) {
  if (block.type === 'text') console.log(block.text);
}

// The store's tool server: credentials from STORE_LOGIN and STORE_AUTH_TOKEN, as for the REST client.
const store = new StoreTools();
const products = await store.listProducts({ status: 'available', limit: 5 });
console.log(products.content.length, 'content block(s)');

await Promise.all([directory.close(), store.close()]);
