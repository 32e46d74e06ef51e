import { APIConnectionTimeoutError, APIUserAbortError, DirectoryClient } from '@agent-apis/directory';

// Each attempt may take 10 s until the whole answer has arrived (the default is 60 s).
const client = new DirectoryClient({ timeout: 10_000 });

// An AbortSignal cancels the call from outside, e.g. when the user gives up: controller.abort().
const controller = new AbortController();

try {
  // A per-call timeout wins over the client's; the signal cancels the call, retries included.
  const categories = await client.categories({ timeout: 2_000, signal: controller.signal });
  console.log(`${categories.mcp.length} tool server categories`);
} catch (error) {
  if (error instanceof APIConnectionTimeoutError) console.log('the directory did not answer in time');
  else if (error instanceof APIUserAbortError) console.log('cancelled');
  else throw error;
}
