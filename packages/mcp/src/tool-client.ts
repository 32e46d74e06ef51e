/**
 * The runtime under every generated tool client: the official MCP SDK `Client` over its streamable HTTP
 * transport, connected on first use; arguments checked against the tool's pinned input schema before anything is
 * sent; failures turned into the typed errors of `@agent-apis/core` plus {@link ToolError}, with credentials masked.
 *
 * Against a hostile server it holds the HTTP clients' limits: every answer body (JSON or an SSE stream) is cut at
 * `maxResponseBytes`, and a call's stream is cancelled when the call ends, at its timeout at the latest. Results
 * are checked only against the pinned output schemas (never the ones `tools/list` sends), and the SDK's own
 * schema compiler is never used, so nothing is compiled or kept per `listTools()`.
 */
import {
  AgentApiError,
  APIUserAbortError,
  type RequestContext,
  RequestValidationError,
  ResponseParseError,
  ResponseValidationError,
} from '@agent-apis/core';
import {
  apiErrorFromResponse,
  boundedResponse,
  connectionError,
  createRequestContext,
  DEFAULT_MAX_RESPONSE_BYTES,
  findViolation,
  type JsonSchema,
  startDeadline,
  timeoutError,
  timerDelay,
} from '@agent-apis/core/call';
import { checkBaseUrl, checkedHeaders, DEFAULT_TIMEOUT_MS, onAbort, raceWithSignal } from '@agent-apis/core/service';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  type JSONRPCMessage,
  ListToolsResultSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { ToolError } from './errors.js';
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

/** Default time a request may take, in ms: the HTTP clients' (`@agent-apis/core`). */
export { DEFAULT_TIMEOUT_MS };

/** Options every tool client takes. */
export interface ToolClientOptions {
  /** The `fetch` to send requests with (default `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch | undefined;
  /** How long one request may take, in ms (default 60 000). */
  timeout?: number | undefined;
  /**
   * Check the structured content of tools whose pinned list declares an output schema against it; a mismatch (or
   * no structured content) throws `ResponseValidationError` (default `false`). Schemas a server sends in
   * `tools/list` are never used.
   */
  validateResponses?: boolean | undefined;
  /**
   * Largest answer read, in bytes (default 8 MiB, as the HTTP clients): a JSON body or an event stream that goes
   * past it is cut there and the call throws `ResponseTooLargeError`.
   */
  maxResponseBytes?: number | undefined;
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

/**
 * The SDK's output-schema validator, replaced: this client never asks it for anything (results are checked against
 * the pinned schemas by `findViolation`), so no server-supplied schema is ever compiled into a regular expression.
 */
const NO_SDK_VALIDATION: jsonSchemaValidator = {
  getValidator: () => () => {
    throw new AgentApiError('@agent-apis/mcp checks tool results itself; the SDK validator must not be used');
  },
};

/** The SDK transport, telling which JSON-RPC request it is about to send, synchronously, before anything awaits. */
class ObservedTransport extends StreamableHTTPClientTransport {
  onSend: ((message: JSONRPCMessage) => void) | undefined;

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.onSend?.(message);
    return super.send(message, options);
  }
}

/** One call in flight: its JSON-RPC id once sent, what ends its answer stream, and why it failed when it did. */
interface CallState {
  id?: string | number;
  readonly stop: AbortController;
  failure?: AgentApiError;
}

function requestIdOf(init: RequestInit | undefined): string | number | undefined {
  try {
    const message = JSON.parse(String(init?.body)) as { id?: unknown; method?: unknown };
    const id = message.id;
    return typeof message.method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The issues of a zod error, as `ResponseValidationError` lists them. */
function zodIssues(error: unknown): { path: string; message: string }[] | undefined {
  if (!(error instanceof Error) || error.name !== 'ZodError') return undefined;
  const issues = (error as Error & { issues?: { path?: unknown[]; message?: unknown }[] }).issues ?? [];
  return issues.map((issue) => ({
    path: (issue.path ?? []).map(String).join('.'),
    message: String(issue.message),
  }));
}

/**
 * A signal that aborts after `ms`, as `AbortSignal.timeout` does, on a timer that never keeps the process alive. Deno
 * keeps its event loop running for an `AbortSignal.timeout` while any listener is attached to it (or to a signal of
 * `AbortSignal.any` over it): a send of the handshake whose answer nobody reads to the end then held a Deno process
 * for the client's whole timeout. Node's timer is unreferenced already.
 */
function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer: { unref?: () => unknown } | number = setTimeout(
    () => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')),
    timerDelay(ms),
  );
  if (typeof timer === 'object') timer.unref?.();
  return controller.signal;
}

export class ToolServerClient<Name extends string = string> {
  /** The server's endpoint. */
  readonly url: string;
  readonly #connection: ToolServerConnection;
  readonly #inputSchemas: Readonly<Record<Name, JsonSchema>>;
  readonly #outputSchemas: Readonly<Partial<Record<string, JsonSchema>>>;
  #client: Promise<Client> | undefined;
  /** The session once connected: calls then take it without waiting. */
  #connected: Client | undefined;
  /** Ends the connect in progress (see {@link close}). */
  #opening: AbortController | undefined;
  /** Calls in flight by JSON-RPC id, so that the transport's fetch can bound and end each one's answer. */
  readonly #calls = new Map<string | number, CallState>();
  /** The call whose request the transport is about to send (set and read synchronously). */
  #sending: CallState | undefined;

  constructor(
    connection: ToolServerConnection,
    inputSchemas: Readonly<Record<Name, JsonSchema>>,
    outputSchemas?: Readonly<Partial<Record<Name, JsonSchema>>>,
  ) {
    const client = new.target.name || 'ToolServerClient';
    // Checked as the HTTP clients check a base URL (a query is let through: a tool server's URL is used as given).
    checkBaseUrl(client, connection.url, { option: 'url', allowQuery: true });
    this.url = connection.url;
    const maxResponseBytes = connection.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes <= 0) {
      throw new AgentApiError(`${client} maxResponseBytes must be a positive whole number of bytes`);
    }
    this.#connection = {
      ...connection,
      maxResponseBytes,
      headers: Object.fromEntries(checkedHeaders(client, connection.headers, 'headers') ?? []),
    };
    this.#inputSchemas = inputSchemas;
    this.#outputSchemas = outputSchemas ?? {};
  }

  /**
   * Every tool the server offers now (all pages of `tools/list`). A server that repeats a cursor, or pages on
   * past {@link MAX_TOOL_LIST_PAGES}, is stopped with a {@link ToolError} instead of being followed forever.
   */
  async listTools(options: ToolCallOptions = {}): Promise<ToolDescription[]> {
    const client = this.#connected ?? (await this.#connect(options));
    const tools: ToolDescription[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      // `client.request`, not `client.listTools`: the latter compiles and keeps every output schema listed.
      const page = await this.#request('tools/list', options, () =>
        client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          ListToolsResultSchema,
          this.#requestOptions(options),
        ),
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

  /**
   * Ends the session, or the connect in progress (calls waiting on it throw `APIUserAbortError`). The next call
   * connects again.
   */
  async close(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    this.#connected = undefined;
    this.#opening?.abort(new APIUserAbortError(this.#context('initialize')));
    this.#opening = undefined;
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
    const client = this.#connected ?? (await this.#connect(options));
    // `client.request`, not `client.callTool`: the latter checks results against schemas the server listed.
    const result = (await this.#request(name, options, () =>
      client.request(
        { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
        CallToolResultSchema,
        this.#requestOptions(options),
      ),
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

  /**
   * The session, connected on first use, within this call's own timeout and signal. The connect itself is shared
   * by every call waiting on it and runs under the client's timeout: one call giving up does not end it for others.
   */
  #connect(options: ToolCallOptions): Promise<Client> {
    if (!this.#client) {
      const session: Promise<Client> = this.#open().then(
        (client) => {
          if (this.#client === session) this.#connected = client;
          return client;
        },
        (error: unknown) => {
          if (this.#client === session) this.#client = undefined;
          throw error;
        },
      );
      this.#client = session;
    }
    const session = this.#client;
    const { signal } = options;
    const timeout = options.timeout ?? this.#connection.timeout ?? DEFAULT_TIMEOUT_MS;
    return new Promise<Client>((resolve, reject) => {
      if (signal?.aborted) {
        session.catch(() => undefined);
        reject(new APIUserAbortError(this.#context('initialize')));
        return;
      }
      const stopWatching = signal
        ? onAbort(signal, () => {
            stopDeadline();
            reject(new APIUserAbortError(this.#context('initialize')));
          })
        : undefined;
      const stopDeadline = startDeadline(timeout, () => {
        stopWatching?.();
        reject(timeoutError(this.#context('initialize'), timeout));
      });
      session.then(
        (client) => {
          stopDeadline();
          stopWatching?.();
          resolve(client);
        },
        (error: unknown) => {
          stopDeadline();
          stopWatching?.();
          reject(error);
        },
      );
    });
  }

  async #open(): Promise<Client> {
    const client = new Client(
      { name: '@agent-apis/mcp', version: VERSION },
      { jsonSchemaValidator: NO_SDK_VALIDATION },
    );
    const transport = new ObservedTransport(new URL(this.url), {
      fetch: this.#fetch,
      requestInit: { headers: this.#connection.headers },
      // Streams are never resumed: a call's stream ends with the call.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1_000,
        maxReconnectionDelay: 1_000,
        reconnectionDelayGrowFactor: 1,
      },
    });
    transport.onSend = (message) => {
      const call = this.#sending;
      if (!call || !('id' in message) || !('method' in message)) return;
      this.#sending = undefined;
      call.id = message.id;
      this.#calls.set(message.id, call);
    };
    const opening = new AbortController();
    this.#opening = opening;
    // Under the client's timeout, not a call's: the session is shared by every call waiting on it.
    const options = { signal: opening.signal };
    // close() ends the handshake at whatever step it is (the last one, a notification, heeds no signal of its own).
    const stopWatching = onAbort(opening.signal, () => void client.close().catch(() => undefined));
    try {
      await this.#request('initialize', options, () => client.connect(transport, this.#requestOptions(options)));
    } finally {
      stopWatching();
      if (this.#opening === opening) this.#opening = undefined;
    }
    return client;
  }

  /**
   * The transport's fetch: a failed POST becomes an `APIError` (by status) or an `APIConnectionError`; every
   * answer, an error's body included, is cut at `maxResponseBytes` and ends with its call (or, outside a call, at
   * the client's timeout). The stream a server may offer on GET is declined here: these clients only ever send
   * requests.
   */
  readonly #fetch: FetchLike = async (url, init) => {
    const send = this.#connection.fetch ?? globalThis.fetch;
    if (init?.method === 'GET') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    if (init?.method !== 'POST') return send(url, init);
    const id = requestIdOf(init);
    const call = id === undefined ? undefined : this.#calls.get(id);
    const ends = call?.stop.signal ?? timeoutSignal(this.#connection.timeout ?? DEFAULT_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, ends]) : ends;
    let response: Response;
    const sent = send(url, { ...init, signal });
    try {
      // Not left to `send`: a `fetch` may ignore its signal, and the handshake waits on every send it makes.
      response = await raceWithSignal(sent, signal);
    } catch (cause) {
      if (signal.aborted) {
        // A response that still comes is let go unread.
        sent.then(
          (late) => late.body?.cancel().catch(() => undefined),
          () => undefined,
        );
        throw cause;
      }
      throw connectionError(this.#context(operationOf(init)), cause);
    }
    const maxBytes = this.#connection.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    // An error answer is read as any other: under the cap, and no longer than its call.
    if (!response.ok)
      throw await apiErrorFromResponse(response, this.#context(operationOf(init)), { maxBytes, signal });
    return boundedResponse(response, maxBytes, signal, (error) => {
      if (!call) return;
      call.failure = error;
      call.stop.abort(error);
    });
  };

  /** What errors say about a request of `operation`; its secrets are the credential headers. */
  #context(operation: string): RequestContext {
    const request = new Request(this.url, { method: 'POST', headers: this.#connection.headers });
    return createRequestContext(request, { id: operation, route: `POST ${new URL(this.url).pathname}` });
  }

  /**
   * Sends one request through `send` (which must hand it to the transport synchronously, as `client.request`
   * does), bounded by its call state, and turns every failure into a typed, redacted error.
   */
  async #request<T>(operation: string, options: ToolCallOptions, send: () => Promise<T>): Promise<T> {
    const call: CallState = { stop: new AbortController() };
    const failed = new Promise<never>((_, reject) => {
      call.stop.signal.addEventListener('abort', () => reject(call.failure ?? call.stop.signal.reason), { once: true });
    });
    failed.catch(() => undefined);
    this.#sending = call;
    try {
      const answer = send();
      this.#sending = undefined;
      return await Promise.race([answer, failed]);
    } catch (error) {
      const context = this.#context(operation);
      if (call.failure) throw call.failure;
      if (error instanceof AgentApiError) throw error;
      const issues = zodIssues(error);
      if (issues) throw new ResponseValidationError(operation, 200, issues);
      if (error instanceof SyntaxError) throw new ResponseParseError(operation, context.route);
      if (options.signal?.aborted) throw new APIUserAbortError(context);
      if (error instanceof McpError) {
        if (error.code === ErrorCode.RequestTimeout) {
          throw timeoutError(context, this.#requestOptions(options).timeout);
        }
        if (error.code !== ErrorCode.ConnectionClosed) throw ToolError.fromRpcError(operation, error, context.secrets);
      }
      throw connectionError(context, error);
    } finally {
      if (this.#sending === call) this.#sending = undefined;
      if (call.id !== undefined) this.#calls.delete(call.id);
      // The call is over (answered, failed or timed out): whatever its stream still sends is not read.
      call.stop.abort();
    }
  }
}
