/** Test helpers of this package: an MCP SDK client connected in memory to a server built from options. */
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import { type JsonSchema, sampleValue as sample } from '@agent-apis/test-servers/sample-value';
import { startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import type { StandIn } from '@agent-apis/test-servers/stand-ins/server';
import {
  type StoreStandIn,
  type StoreStandInOptions,
  startStoreStandIn,
} from '@agent-apis/test-servers/stand-ins/store';
import { startTrustStandIn, type TrustStandIn } from '@agent-apis/test-servers/stand-ins/trust';
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

/** The stand-ins of the three APIs (contract-tests' loopback servers) and options pointing the server at them. */
export interface Mocks {
  directory: StandIn;
  store: StoreStandIn;
  trust: TrustStandIn;
  credentials: { login: string; authToken: string; apiKey: string };
  /** Client options for the server: base URLs and credentials of the stand-ins. */
  options: Pick<AgentApisServerOptions, 'directory' | 'store' | 'trust'>;
  close(): Promise<void>;
}

export async function startMocks(storeOptions: Partial<StoreStandInOptions> = {}): Promise<Mocks> {
  const credentials = {
    login: 'mcp-test-login',
    authToken: 'mcp-test-token-0123456789',
    apiKey: 'sk_ent0_mcp_test_key',
  };
  const [directory, store, trust] = await Promise.all([
    startDirectoryStandIn(),
    startStoreStandIn({ login: credentials.login, authToken: credentials.authToken, ...storeOptions }),
    startTrustStandIn({ apiKey: credentials.apiKey }),
  ]);
  return {
    directory,
    store,
    trust,
    credentials,
    options: {
      directory: { baseUrl: directory.url },
      store: { baseUrl: store.url, login: credentials.login, authToken: credentials.authToken },
      trust: { baseUrl: trust.url, apiKey: credentials.apiKey },
    },
    close: async () => {
      await Promise.all([directory.close(), store.close(), trust.close()]);
    },
  };
}

/** A value satisfying `schema` (required properties only): what a test sends where any valid value will do. */
export const sampleValue = (schema: JsonSchema): unknown => sample({} as OpenApiDocument, schema, 'required');

/** The JSON-RPC `initialize` request a raw HTTP test posts (no SDK client). */
export const INITIALIZE_REQUEST = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-http', version: '1' } },
};
