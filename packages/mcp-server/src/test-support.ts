/** Test helpers of this package: an MCP SDK client connected in memory to a server built from options. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type AgentApisServerOptions, createAgentApisServer } from './server.js';

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

/** An SDK client talking to a fresh server with `options` over an in-memory transport pair. */
export async function connect(options: AgentApisServerOptions): Promise<Connected> {
  const server = createAgentApisServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? '';
}
