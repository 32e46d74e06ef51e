/**
 * The runtime under every generated tool client: the official MCP SDK `Client` over its streamable HTTP
 * transport, connected on first use; arguments checked against the tool's pinned input schema before anything is
 * sent; failures turned into the typed errors of `@agent-apis/core` plus {@link ToolError}, with credentials masked.
 */
import {
  AgentApiError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  createRequestContext,
  type RequestContext,
  RequestValidationError,
  ResponseValidationError,
} from '@agent-apis/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from './errors.js';
import { findViolation, type JsonSchema } from './schema.js';
import { VERSION } from './version.js';

/** A successful tool result: content blocks and, when the tool declares an output schema, structured content. */
export type ToolResult = CallToolResult;

/** Any value JSON can carry. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A tool result with its JSON read out as `data`: the structured content when the tool sent some (typed by the
 * tool's output schema where it declares one), else the text content parsed as one JSON document, else
 * `undefined` (a tool that answers in prose or images).
 */
export type ToolOutput<Data = JsonValue | undefined> = ToolResult & { readonly data: Data };

/** Most `tools/list` pages read before giving up on a server that never stops paging. */
export const MAX_TOOL_LIST_PAGES = 100;

/** A tool as the server lists it. */
export type ToolDescription = Tool;

/** Default time a request may take, in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Options every tool client takes. */
export interface ToolClientOptions {
  /** The `fetch` to send requests with (default `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch | undefined;
  /** How long one request may take, in ms (default 60 000). */
  timeout?: number | undefined;
  /**
   * Check the structured content of tools that declare an output schema against it; a mismatch (or no
   * structured content) throws `ResponseValidationError` (default `false`).
   */
  validateResponses?: boolean | undefined;
}

/** Options of one call. */
export interface ToolCallOptions {
  /** Abort the call. */
  signal?: AbortSignal | undefined;
  /** How long this call may take, in ms. */
  timeout?: number | undefined;
}

/** Where and how a tool client talks to its server. */
export interface ToolServerConnection extends ToolClientOptions {
  /** The server's streamable HTTP endpoint. */
  url: string;
  /** Headers sent with every request (credentials included: they are masked wherever they could surface). */
  headers: Readonly<Record<string, string>>;
}

/** The tool name, or the JSON-RPC method, a transport request is for (read from its body). */
function operationOf(init: RequestInit | undefined): string {
  try {
    const message = JSON.parse(String(init?.body)) as { method?: string; params?: { name?: unknown } };
    if (message.method === 'tools/call' && typeof message.params?.name === 'string') return message.params.name;
    return message.method ?? 'request';
  } catch {
    return 'request';
  }
}

/** The JSON value of a result: its structured content, else its text content as one JSON document. */
function dataOf(result: ToolResult): JsonValue | undefined {
  if (result.structuredContent !== undefined) return result.structuredContent as JsonValue;
  const blocks = result.content ?? [];
  if (blocks.length === 0 || blocks.some((block) => block.type !== 'text')) return undefined;
  try {
    return JSON.parse(blocks.map((block) => (block.type === 'text' ? block.text : '')).join('')) as JsonValue;
  } catch {
    return undefined;
  }
}

export class ToolServerClient<Name extends string = string> {
  /** The server's endpoint. */
  readonly url: string;
  readonly #connection: ToolServerConnection;
  readonly #inputSchemas: Readonly<Record<Name, JsonSchema>>;
  readonly #outputSchemas: Readonly<Partial<Record<string, JsonSchema>>>;
  #client: Promise<Client> | undefined;

  constructor(
    connection: ToolServerConnection,
    inputSchemas: Readonly<Record<Name, JsonSchema>>,
    outputSchemas?: Readonly<Partial<Record<Name, JsonSchema>>>,
  ) {
    this.url = connection.url;
    this.#connection = { ...connection, headers: { ...connection.headers } };
    this.#inputSchemas = inputSchemas;
    this.#outputSchemas = outputSchemas ?? {};
  }

  /**
   * Every tool the server offers now (all pages of `tools/list`). A server that repeats a cursor, or pages on
   * past {@link MAX_TOOL_LIST_PAGES}, is stopped with a {@link ToolError} instead of being followed forever.
   */
  async listTools(options: ToolCallOptions = {}): Promise<ToolDescription[]> {
    const client = await this.#connect();
    const tools: ToolDescription[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const page = await this.#request('tools/list', options, () =>
        client.listTools(cursor === undefined ? undefined : { cursor }, this.#requestOptions(options)),
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
      if (!cursor) return tools;
      if (seen.has(cursor)) {
        throw new ToolError(
          'tools/list',
          `tools/list repeated the cursor of an earlier page; stopped after ${pages} pages`,
        );
      }
      if (pages >= MAX_TOOL_LIST_PAGES) {
        throw new ToolError('tools/list', `tools/list did not end within ${MAX_TOOL_LIST_PAGES} pages`);
      }
      seen.add(cursor);
    }
  }

  /** Ends the session. The next call connects again. */
  async close(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    const client = await pending?.catch(() => undefined);
    await client?.close();
  }

  /**
   * Checks `args` against the tool's pinned input schema, then calls the tool. Throws `RequestValidationError`
   * (nothing sent) for invalid arguments and {@link ToolError} when the tool reports an error or the server refuses.
   */
  protected async callTool(name: Name, args: object, options: ToolCallOptions = {}): Promise<ToolResult> {
    const schema = this.#inputSchemas[name];
    const violation = findViolation(schema, args);
    if (violation) throw new RequestValidationError({ operation: name, ...violation });
    const client = await this.#connect();
    const result = (await this.#request(name, options, () =>
      client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, this.#requestOptions(options)),
    )) as ToolResult;
    if (result.isError) throw ToolError.fromResult(name, result, this.#context(name).secrets);
    return result;
  }

  /**
   * {@link callTool}, with the result's JSON read out as `data` (see {@link ToolOutput}); under
   * `validateResponses`, the structured content of a tool with an output schema is checked against it first.
   */
  protected async callToolForData<Data>(
    name: Name,
    args: object,
    options: ToolCallOptions = {},
  ): Promise<ToolOutput<Data>> {
    const result = await this.callTool(name, args, options);
    const schema = this.#outputSchemas[name];
    if (schema && this.#connection.validateResponses) {
      const violation =
        result.structuredContent === undefined
          ? { field: '(structuredContent)', reason: 'is missing although the tool declares an output schema' }
          : findViolation(schema, result.structuredContent);
      if (violation) {
        throw new ResponseValidationError(name, 200, [{ path: violation.field, message: violation.reason }]);
      }
    }
    return { ...result, data: dataOf(result) as Data };
  }

  #requestOptions(options: ToolCallOptions) {
    return {
      timeout: options.timeout ?? this.#connection.timeout ?? DEFAULT_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    };
  }

  #connect(): Promise<Client> {
    this.#client ??= this.#open().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  async #open(): Promise<Client> {
    const client = new Client({ name: '@agent-apis/mcp', version: VERSION });
    const transport = new StreamableHTTPClientTransport(new URL(this.url), {
      fetch: this.#fetch,
      requestInit: { headers: this.#connection.headers },
    });
    await this.#request('initialize', {}, () => client.connect(transport, this.#requestOptions({})));
    return client;
  }

  /** The transport's fetch: a failed POST becomes an `APIError` (by status) or an `APIConnectionError`. */
  readonly #fetch: FetchLike = async (url, init) => {
    const send = this.#connection.fetch ?? globalThis.fetch;
    if (init?.method !== 'POST') return send(url, init);
    let response: Response;
    try {
      response = await send(url, init);
    } catch (cause) {
      if (init.signal?.aborted) throw cause;
      throw new APIConnectionError(this.#context(operationOf(init)), { cause });
    }
    if (!response.ok) throw await APIError.fromResponse(response, this.#context(operationOf(init)));
    return response;
  };

  /** What errors say about a request of `operation`; its secrets are the credential headers. */
  #context(operation: string): RequestContext {
    const request = new Request(this.url, { method: 'POST', headers: this.#connection.headers });
    return createRequestContext(request, { id: operation, route: `POST ${new URL(this.url).pathname}` });
  }

  async #request<T>(operation: string, options: ToolCallOptions, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      const context = this.#context(operation);
      if (error instanceof AgentApiError) throw error;
      if (options.signal?.aborted) throw new APIUserAbortError(context);
      if (error instanceof McpError) {
        if (error.code === ErrorCode.RequestTimeout) {
          throw new APIConnectionTimeoutError(context, this.#requestOptions(options).timeout);
        }
        if (error.code !== ErrorCode.ConnectionClosed) throw ToolError.fromRpcError(operation, error, context.secrets);
      }
      throw new APIConnectionError(context, { cause: error });
    }
  }
}
