import { AuthenticationError, RequestValidationError, StoreTools, ToolError } from '@agent-apis/mcp';

const tools = new StoreTools();

try {
  await tools.listOrders({ limit: 500 });
} catch (error) {
  // Checked against the tool's input schema before anything was sent.
  if (error instanceof RequestValidationError) console.log(`not sent: ${error.field} ${error.reason}`);
  else throw error;
}

try {
  await tools.getProduct({ id: 404 });
} catch (error) {
  if (error instanceof ToolError) console.log(`${error.operation}: ${error.message}`);
  else if (error instanceof AuthenticationError) console.log('check STORE_LOGIN and STORE_AUTH_TOKEN');
  else throw error;
}

await tools.close();
