import { StoreTools } from '@agent-apis/mcp';

// Options take precedence over the environment (STORE_LOGIN, STORE_AUTH_TOKEN); give both credentials or neither.
// The server is https://mcp.jumpseller.com unless the `url` option or STORE_MCP_URL says otherwise.
const tools = new StoreTools({
  loginKey: process.env.MY_SHOP_LOGIN_KEY,
  authToken: process.env.MY_SHOP_AUTH_TOKEN,
});

const info = await tools.getStoreInfo();
const [first] = info.content;
console.log(first?.type === 'text' ? first.text : 'no text');
await tools.close();
