/**
 * Code mode: two tools in place of one tool per operation. `describe_operations` hands the model compact TypeScript
 * declarations of the operations it asks about; `execute` runs the script it writes in the QuickJS sandbox, where
 * `directory`, `store` and `trust` hold one method per operation. Every call a script makes goes through the tool
 * server's own dispatch (the {@link CodeModeHost}): safety classes, argument checks, the shared clients and budget.
 */
import { type CatalogOptions, MORE_TOOL, OPERATIONS, OUTPUT_SCHEMA, SERVICES, type ToolEntry } from '../catalog.js';
import { snakeCase } from '../names.js';
import type { ServiceName, ToolOperation } from '../operation.js';
import { annotationsOf, refusal, type SafetyOptions, type ToolAnnotations } from '../safety.js';
import { searchOperations } from '../search.js';
import { declare } from './declarations.js';
import { DEFAULT_SANDBOX_LIMITS, runInSandbox, type SandboxLimits } from './sandbox.js';

export const DESCRIBE_TOOL = 'describe_operations';
export const EXECUTE_TOOL = 'execute';

/** Environment variable the command line reads `codeMode` from (`1` or `true`). */
export const CODE_MODE_ENV_VAR = 'AGENT_APIS_MCP_CODE_MODE';

export interface CodeModeOptions {
  /**
   * List only `describe_operations`, `execute` and `answer_more`: the model writes one script per task instead of
   * one tool call per operation. `true`, or limits of one run (`timeMs`, `memoryBytes`, `maxCalls`, `maxLogBytes`,
   * `maxResultBytes`) over the defaults. Env `AGENT_APIS_MCP_CODE_MODE=1`.
   */
  codeMode?: boolean | Partial<SandboxLimits> | undefined;
}

/** What code mode needs of the tool server: one call sent as a direct tool would send it. */
export interface CodeModeHost {
  /**
   * Resolves to the JSON text of `{ data }`, the answer as a direct tool carries it (secrets scrubbed); rejects with an `Error` whose message is the text a
   * direct tool's error would carry (a refusal, an argument problem, the API's failure).
   */
  send(
    service: ServiceName,
    operation: ToolOperation,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<string>;
}

/** What a code-mode tool answers: data for the pager, or the text of a tool error. */
export type CodeModeAnswer = { data: unknown } | { error: string };

/** Longest script accepted. */
const MAX_CODE_CHARS = 100_000;

function words(text: string): string[] {
  return snakeCase(text)
    .split('_')
    .filter((word) => word.length > 1)
    .map((word) => word.replace(/s$/, ''));
}

/**
 * `candidates` with the operations whose id is closest to `part` first: most of its words in the id, then the
 * fewest other words (`list orders` is `listOrders` before `listAppBillingCycleOrders`), then as found.
 */
function closest(candidates: readonly ToolOperation[], part: string): ToolOperation[] {
  const terms = new Set(words(part));
  return candidates
    .map((operation, index) => {
      const id = [...new Set(words(operation.id))];
      const hits = id.filter((word) => terms.has(word)).length;
      return { operation, index, hits, extra: id.length - hits };
    })
    .sort((a, b) => b.hits - a.hits || a.extra - b.extra || a.index - b.index)
    .map((entry) => entry.operation);
}

/**
 * Whether a server with `options` would send a write of an API it serves: then `execute` is not read-only. Asked
 * of the same refusal the dispatch applies, so `--allow-writes=store` on a server of `directory` alone stays
 * read-only.
 */
function mayWrite(options: CatalogOptions & SafetyOptions): boolean {
  return servedOf(options).some((service) =>
    OPERATIONS[service].some(
      (operation) =>
        operation.safety !== 'read' &&
        operation.safety !== 'spends-quota' &&
        refusal(service, operation, options) === undefined,
    ),
  );
}

/** The annotations of `execute`: read-only exactly when the server sends no write, whatever the script asks. */
export function executeAnnotations(options: CatalogOptions & SafetyOptions): ToolAnnotations {
  // spends-quota: read-only, but not idempotent (a trust decision may spend a scan).
  return mayWrite(options) ? annotationsOf('dangerous', 'POST') : annotationsOf('spends-quota', 'POST');
}

function servedOf(options: CatalogOptions): ServiceName[] {
  return SERVICES.filter((service) => options.services?.includes(service) ?? true);
}

/** The tools of code mode (without `answer_more`, which the catalog adds). */
export function codeModeTools(options: CatalogOptions & SafetyOptions): ToolEntry[] {
  const served = servedOf(options);
  const writes = mayWrite(options)
    ? 'Writes are sent only where the server allows them; a refused call rejects with the reason.'
    : 'This server is read-only: a write rejects with the option that would allow it.';
  return [
    {
      name: DESCRIBE_TOOL,
      description: `TypeScript declarations of the ${served.join(', ')} API operations that execute's scripts can call. Without a query: every operation's name. With one: the declarations of the best matches.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            description:
              'Words or operation names; one comma-separated part per operation, e.g. "list products, trust decide".',
          },
          limit: { type: 'integer', minimum: 1, maximum: 30, default: 8 },
        },
        additionalProperties: false,
      },
      outputSchema: OUTPUT_SCHEMA,
      annotations: { ...annotationsOf('read', 'GET'), openWorldHint: false },
      target: { kind: 'code', tool: 'describe' },
    },
    {
      name: EXECUTE_TOOL,
      description:
        `Runs JavaScript, the body of an async function, in a sandbox where ${served.map((service) => `\`${service}\``).join(', ')} hold one async method per operation (arguments: its parameters by name and \`body\`; see describe_operations), e.g. \`const p = await store.listProducts({ limit: 5 }); return p.map((x) => x.product.name);\`. ` +
        `Answers what the script returns; with console.log output, \`{ result, logs }\`. No network, files, timers or modules. ${writes}`,
      inputSchema: {
        type: 'object',
        properties: { code: { type: 'string', maxLength: MAX_CODE_CHARS, description: 'The script.' } },
        required: ['code'],
        additionalProperties: false,
      },
      outputSchema: OUTPUT_SCHEMA,
      annotations: executeAnnotations(options),
      target: { kind: 'code', tool: 'execute' },
    },
  ];
}

/** The tools of a code-mode server: `describe_operations`, `execute`, and the catalog's `answer_more`. */
export function codeModeCatalog(catalog: readonly ToolEntry[], options: CatalogOptions & SafetyOptions): ToolEntry[] {
  return [...codeModeTools(options), ...catalog.filter((tool) => tool.name === MORE_TOOL)];
}

/** Runs the code-mode tools for one tool server. */
export class CodeMode {
  readonly #options: CodeModeOptions & CatalogOptions;
  readonly #host: CodeModeHost;
  readonly #served: ServiceName[];

  constructor(options: CodeModeOptions & CatalogOptions, host: CodeModeHost) {
    this.#options = options;
    this.#host = host;
    this.#served = servedOf(options);
  }

  call(tool: 'describe' | 'execute', args: Record<string, unknown>, signal?: AbortSignal): Promise<CodeModeAnswer> {
    return tool === 'describe' ? Promise.resolve(this.#describe(args)) : this.#execute(args, signal);
  }

  #describe(args: Record<string, unknown>): CodeModeAnswer {
    const { query, limit } = args;
    if (query !== undefined && typeof query !== 'string') return { error: 'arguments.query must be a string.' };
    if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 30)) {
      return { error: 'arguments.limit must be an integer from 1 to 30.' };
    }
    if (query === undefined || query.trim() === '') {
      return {
        data: {
          operations: Object.fromEntries(
            this.#served.map((service) => [service, OPERATIONS[service].map((operation) => operation.id).join(', ')]),
          ),
          note: 'Call describe_operations with a query for the declarations.',
        },
      };
    }
    const serviceOf = new Map<ToolOperation, ServiceName>();
    for (const service of this.#served) for (const operation of OPERATIONS[service]) serviceOf.set(operation, service);
    // Each comma-separated part is searched on its own (one part per operation the task needs); a part naming an
    // API (`trust decide`) searches that API's operations.
    const parts = query.split(/[,;\n]/).filter((part) => part.trim() !== '');
    const each = Math.max(1, Math.ceil(((limit as number | undefined) ?? 8) / parts.length));
    const found = new Set<ToolOperation>();
    for (const part of parts) {
      const named = this.#served.filter((service) => new RegExp(`\\b${service}\\b`, 'i').test(part));
      const pool = [...serviceOf.keys()].filter(
        (operation) => named.length === 0 || named.includes(serviceOf.get(operation) as ServiceName),
      );
      for (const operation of closest(searchOperations(pool, part, { limit: 50 }), part).slice(0, each)) {
        found.add(operation);
      }
    }
    if (found.size === 0) {
      return {
        error: `No operation matches ${JSON.stringify(query)}; call describe_operations without a query for every name.`,
      };
    }
    // The declarations are the whole answer: no envelope around them.
    return {
      data: declare([...found].map((operation) => ({ service: serviceOf.get(operation) as ServiceName, operation }))),
    };
  }

  async #execute(args: Record<string, unknown>, signal?: AbortSignal): Promise<CodeModeAnswer> {
    const { code } = args;
    if (typeof code !== 'string' || code.trim() === '')
      return { error: 'arguments.code must be the script, a string.' };
    if (code.length > MAX_CODE_CHARS) return { error: `arguments.code is over ${MAX_CODE_CHARS} characters.` };
    const configured = typeof this.#options.codeMode === 'object' ? this.#options.codeMode : {};
    const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...configured };
    const outcome = await runInSandbox({
      code,
      namespaces: Object.fromEntries(
        this.#served.map((service) => [service, OPERATIONS[service].map((operation) => operation.id)]),
      ),
      limits,
      signal,
      call: (service, id, argsJson, callSignal) => {
        const operation = OPERATIONS[service as ServiceName]?.find((candidate) => candidate.id === id);
        if (!operation || !this.#served.includes(service as ServiceName)) {
          return Promise.reject(new Error(`${service}.${id}: no such operation on this server`));
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(argsJson);
        } catch {
          return Promise.reject(new Error(`${service}.${id}: the arguments must be a JSON object`));
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          return Promise.reject(
            new Error(`${service}.${id}: the arguments must be an object of parameters and \`body\``),
          );
        }
        return this.#host.send(service as ServiceName, operation, parsed as Record<string, unknown>, callSignal);
      },
    });
    if (!outcome.ok) {
      const logs = outcome.logs.length > 0 ? `\nconsole:\n${outcome.logs.join('\n')}` : '';
      return { error: `The script failed after ${outcome.calls} API call(s): ${outcome.error}${logs}` };
    }
    // The answer is what the script returned, nothing around it; console output, when there is some, beside it.
    const result = JSON.parse(outcome.resultJson) as unknown;
    return { data: outcome.logs.length > 0 ? { result, logs: outcome.logs } : result };
  }
}
