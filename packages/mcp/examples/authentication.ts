import { StoreTools } from '@agent-apis/mcp';

// Options take precedence over the environment; give both credentials or neither.
const tools = new StoreTools({
  loginKey: process.env.MY_SHOP_LOGIN_KEY,
  authToken: process.env.MY_SHOP_AUTH_TOKEN,
  url: 'https://mcp.jumpseller.com', // the default; STORE_MCP_URL changes it too
});

const info = await tools.getStoreInfo();
const [first] = info.content;
console.log(first?.type === 'text' ? first.text : 'no text');
await tools.close();
