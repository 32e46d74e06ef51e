import { StoreTools } from '@agent-apis/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

// A stand-in for the store's tool server, reached through `fetch`: no network, any credentials.
const fakeStore: typeof fetch = async (input, init) => {
  const server = new McpServer({ name: 'fake-store', version: '1.0.0' });
  server.registerTool('get_store_info', { description: 'Store name and currency.' }, () => ({
    content: [{ type: 'text', text: 'Mug Shop (CLP)' }],
  }));
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(new Request(input, init));
};

const tools = new StoreTools({ loginKey: 'test', authToken: 'test', fetch: fakeStore });
const info = await tools.getStoreInfo();
const [first] = info.content;
console.log(first?.type === 'text' ? first.text : 'no text');
await tools.close();
