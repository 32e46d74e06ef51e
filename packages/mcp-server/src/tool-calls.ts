/**
 * What every tool call goes through, in order: find the tool; for an operation, check its safety class against
 * the server's options (refused before anything is sent), check the arguments against its input schema, send it
 * through the service's client, select `fields`, cap the answer. Failures become tool errors.
 */

import { AnswerPager, DEFAULT_MAX_ANSWER_BYTES, type HeldBudget, selectFields } from './answer.js';
import { argumentProblems, callOptions, normalizeArguments } from './arguments.js';
import { buildCatalog, type CatalogOptions, OPERATIONS, STORE_WRITE_TOOL, type ToolEntry } from './catalog.js';
import { type ClientsOptions, ServiceClients } from './clients.js';
import { CodeMode, type CodeModeOptions, codeModeCatalog } from './code/code-mode.js';
import type { ServiceName, ToolOperation } from './operation.js';
import { refusal, type SafetyOptions } from './safety.js';
import { searchOperations } from './search.js';
import { describeFailure, scrub, scrubValue } from './tool-errors.js';

export interface ToolCallsOptions extends SafetyOptions, CatalogOptions, ClientsOptions, CodeModeOptions {
  /** Cap on one answer's JSON text in bytes; larger answers are paged with a cursor (default 24 000). */
  maxAnswerBytes?: number | undefined;
  /** Bytes held for `answer_more` by one session (one `ToolCalls`) at most, oldest dropped first (default 4 MiB). */
  maxHeldBytes?: number | undefined;
  /** The server's budget for held answers, shared by its sessions (the HTTP transport passes one). */
  heldBudget?: HeldBudget | undefined;
}

/** A tool result as MCP carries it. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function failure(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * A result carrying `answer`, scrubbed again of every secret (a hostile API could echo one back); the data was
 * scrubbed whole before it was paged, so no cut splits a credential.
 */
function success(answer: object, secrets: readonly string[]): ToolResult {
  const clean = scrubValue(answer, secrets) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(clean) }], structuredContent: clean };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why `operation` does not go through this call tool: a read through the write tool, a write or dangerous
 * operation through the read-only one (naming the tool to use, or the refusal when the server lists no write tool).
 */
function wrongCallTool(operation: ToolOperation, writes: boolean, writeToolListed: boolean): string | undefined {
  const isRead = operation.safety === 'read' || operation.safety === 'spends-quota';
  if (writes && isRead) return `store.${operation.id} is a read: call it with store_call_operation. Nothing was sent.`;
  if (writes || isRead) return undefined;
  if (writeToolListed) {
    return `store.${operation.id} is a ${operation.safety === 'write' ? 'write' : 'dangerous operation'}: call it with ${STORE_WRITE_TOOL} (store_call_operation is read-only). Nothing was sent.`;
  }
  return undefined;
}

function fieldsOf(args: Record<string, unknown>): string[] | string {
  const fields = args.fields;
  if (fields === undefined) return [];
  if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string')) {
    return 'arguments.fields must be an array of dotted field paths (strings)';
  }
  return fields;
}

export class ToolCalls {
  readonly tools: readonly ToolEntry[];
  readonly #byName: Map<string, ToolEntry>;
  readonly #options: ToolCallsOptions;
  readonly #clients: ServiceClients;
  readonly #pager: AnswerPager;
  readonly #code: CodeMode;

  constructor(options: ToolCallsOptions = {}, clients: ServiceClients = new ServiceClients(options)) {
    this.#options = options;
    this.tools = options.codeMode ? codeModeCatalog(buildCatalog(options), options) : buildCatalog(options);
    this.#byName = new Map(this.tools.map((tool) => [tool.name, tool]));
    this.#clients = clients;
    this.#pager = new AnswerPager(options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES, Date.now, {
      maxHeldBytes: options.maxHeldBytes,
      budget: options.heldBudget,
    });
    this.#code = new CodeMode(options, { send: (...call) => this.#sendChecked(...call) });
  }

  /** Lets go of every answer held for `answer_more` (the session ended). */
  release(): void {
    this.#pager.clear();
  }

  /** Whether the server lists a tool named `name`. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** Calls tool `name`; never throws (a failure is a result with `isError`). */
  async call(name: string, rawArgs: unknown, signal?: AbortSignal): Promise<ToolResult> {
    const tool = this.#byName.get(name);
    if (!tool) return failure(`Unknown tool ${name}. List the tools to see what this server offers.`);
    const args = rawArgs ?? {};
    if (!isRecord(args)) return failure('The arguments must be a JSON object.');
    try {
      switch (tool.target.kind) {
        case 'more': {
          const cursor = typeof args.cursor === 'string' ? args.cursor : '';
          const answer = this.#pager.more(cursor);
          return answer ? success(answer, this.#clients.secrets()) : failure(this.#pager.missing(cursor));
        }
        case 'search':
          return this.#search(args);
        case 'call': {
          const operation = OPERATIONS.store.find((candidate) => candidate.id === args.operationId);
          if (!operation) {
            return failure(
              `arguments.operationId: the store API has no operation ${JSON.stringify(args.operationId)}. Find one with store_search_operations.`,
            );
          }
          const misplaced = wrongCallTool(operation, tool.target.writes, this.has(STORE_WRITE_TOOL));
          if (misplaced) return failure(misplaced);
          // A client that shows `arguments` as JSON text (schema profiles) sends it as text.
          const inner = normalizeArguments({ type: 'object' }, args.arguments ?? {});
          if (!isRecord(inner)) return failure('arguments.arguments must be an object of the operation’s arguments.');
          return await this.#operation('store', operation, inner, args.fields ?? undefined, signal);
        }
        case 'extra':
          return success(this.#pager.answer(await tool.target.call(args, signal)), this.#clients.secrets());
        case 'operation': {
          const { fields, ...rest } = args;
          return await this.#operation(tool.target.service, tool.target.operation, rest, fields, signal);
        }
        case 'code': {
          const answer = await this.#code.call(tool.target.tool, args, signal);
          const secrets = this.#clients.secrets();
          return 'error' in answer
            ? failure(scrub(answer.error, this.#clients.errorSecrets()))
            : success(this.#pager.answer(scrubValue(answer.data, secrets)), secrets);
        }
      }
    } catch (error) {
      const { target } = tool;
      const service = target.kind === 'operation' ? target.service : target.kind === 'call' ? 'store' : undefined;
      return failure(describeFailure(error, this.#clients.errorSecrets(), service));
    }
  }

  #search(args: Record<string, unknown>): ToolResult {
    if (typeof args.query !== 'string') return failure('arguments.query must be a string of words to look for.');
    const limit = typeof args.limit === 'number' ? Math.min(Math.max(1, Math.floor(args.limit)), 20) : 5;
    const safety = typeof args.safety === 'string' ? args.safety : undefined;
    const found = searchOperations(OPERATIONS.store, args.query, { safety, limit }).map((operation) => ({
      operationId: operation.id,
      summary: operation.summary,
      method: operation.method,
      path: operation.path,
      safety: operation.safety,
      allowed: refusal('store', operation, this.#options) === undefined,
      inputSchema: operation.inputSchema,
    }));
    return success(this.#pager.answer(found), []);
  }

  async #operation(
    service: ServiceName,
    operation: ToolOperation,
    args: Record<string, unknown>,
    rawFields: unknown,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const checked = normalizeArguments(operation.inputSchema, args) as Record<string, unknown>;
    const refused = this.#refused(service, operation, checked);
    if (refused) return failure(refused);
    const fields = fieldsOf({ fields: rawFields ?? undefined });
    if (typeof fields === 'string') return failure(fields);
    const data = await this.#send(service, operation, checked, signal);
    const secrets = this.#clients.secrets();
    return success(this.#pager.answer(scrubValue(selectFields(data, fields), secrets)), secrets);
  }

  /** Why `operation` with `args` is not sent: its safety class, or its arguments; `undefined` when it may be. */
  #refused(service: ServiceName, operation: ToolOperation, args: Record<string, unknown>): string | undefined {
    const refused = refusal(service, operation, this.#options);
    if (refused) return refused;
    const problems = argumentProblems(operation, args);
    if (problems.length === 0) return undefined;
    return `Not sent: ${problems.join('; ')}. The input schema of ${service}.${operation.id} is in the tool list (or store_search_operations).`;
  }

  /** One call of a code-mode script, through the same checks and clients: the answer's JSON, secrets scrubbed. */
  async #sendChecked(
    service: ServiceName,
    operation: ToolOperation,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) {
    const refused = this.#refused(service, operation, args);
    if (refused) throw new Error(refused);
    let data: unknown;
    try {
      data = await this.#send(service, operation, args, signal);
    } catch (error) {
      throw new Error(describeFailure(error, this.#clients.errorSecrets(), service));
    }
    return success({ data }, this.#clients.secrets()).content[0]?.text ?? '{}';
  }

  async #send(service: ServiceName, operation: ToolOperation, args: Record<string, unknown>, signal?: AbortSignal) {
    const options = { ...callOptions(operation, args), ...(signal ? { signal } : {}) };
    if (service === 'trust') {
      const trust = this.#clients.trust();
      // decide goes through the client's decision cache (and the fleet's, with Redis): one scan per window.
      if (operation.id === 'decide') {
        const decision = await trust.decide(options.body as Parameters<typeof trust.decide>[0], { signal });
        return decision.result;
      }
      return callBound(trust.api, operation.id, options);
    }
    return callBound(
      service === 'store' ? this.#clients.store().api : this.#clients.directory().api,
      operation.id,
      options,
    );
  }
}

/** Sends through a client's bound operation by id (the id comes from the same table the client was built from). */
function callBound(api: object, id: string, options: object): Promise<unknown> {
  const bound = (api as Record<string, ((options: object) => PromiseLike<unknown>) | undefined>)[id];
  if (!bound) throw new Error(`the client has no operation ${id} (the server and client packages are out of step)`);
  return Promise.resolve(bound(options));
}
