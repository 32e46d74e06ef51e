/**
 * The tools a server lists, built from the generated operation table: one tool per directory and trust operation;
 * for the store, a search over its operations, a read-only tool that calls any of its reads by id and, when the
 * server allows some store writes, a separate write tool; on request one tool per operation of chosen resources
 * (`products`, `orders`, …) or by id (`store.getOrder`); and `answer_more` for capped answers. What every tool
 * shares (`fields`, paging, safety) is said once, in the server's instructions ({@link serverInstructions}).
 */
import { directoryOperations, storeOperations, trustOperations } from './gen/operations.gen.js';
import { operationToolName } from './names.js';
import type { ServiceName, SpecSchema, ToolOperation } from './operation.js';
import { annotationsOf, type SafetyOptions, type ToolAnnotations } from './safety.js';
import { profileSchema, type SchemaProfile } from './schema-profile.js';

export const OPERATIONS: Readonly<Record<ServiceName, readonly ToolOperation[]>> = {
  directory: directoryOperations,
  store: storeOperations,
  trust: trustOperations,
};

export const SERVICES: readonly ServiceName[] = ['directory', 'store', 'trust'];

export const STORE_SEARCH_TOOL = 'store_search_operations';
export const STORE_CALL_TOOL = 'store_call_operation';
export const STORE_WRITE_TOOL = 'store_call_write_operation';
export const MORE_TOOL = 'answer_more';

/** What a tool does when called (`extra`: a tool another module registers, answered by its own handler). */
export type ToolTarget =
  | { kind: 'operation'; service: ServiceName; operation: ToolOperation }
  | { kind: 'search' }
  | { kind: 'call'; writes: boolean }
  | { kind: 'more' }
  | { kind: 'extra'; call: (args: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown> }
  | { kind: 'code'; tool: 'describe' | 'execute' };

export interface ToolEntry {
  name: string;
  description: string;
  /** The schema listed (under the server's schema profile). */
  inputSchema: SpecSchema;
  /** Only where it says something about the answer. */
  outputSchema?: SpecSchema | undefined;
  annotations: ToolAnnotations;
  target: ToolTarget;
}

/** `fields`, on every tool that answers API data; what it does is said once, in the instructions. */
const FIELDS: SpecSchema = { type: 'array', items: { type: 'string' } };

/**
 * The envelope every tool answers in: `data`, or a `part` of a long answer, and a `cursor` when more follows. Not
 * listed per tool (it says nothing of the data); the instructions describe it.
 */
export const OUTPUT_SCHEMA: SpecSchema = {
  type: 'object',
  properties: {
    data: { description: 'The answer (with `fields`, only those fields).' },
    part: { type: 'string', description: 'A part of a long answer without a list: concatenate the parts, then parse.' },
    cursor: { type: 'string', description: 'More follows: call answer_more with this cursor.' },
    remaining: { type: 'integer', description: 'Records (or characters) still to come.' },
    note: { type: 'string' },
  },
  additionalProperties: false,
};

/** A quota-spending read says so: every call costs (the other classes are in the annotations). */
const QUOTA_NOTE = ' Spends one scan of the API key’s monthly quota per domain.';

/**
 * The hints as listed: only those that differ from the protocol's defaults (`readOnlyHint: false`,
 * `destructiveHint: true`, `idempotentHint: false`, `openWorldHint: true`) and mean something (the destructive and
 * idempotent hints only for a tool that is not read-only). A client reads a missing hint as its default.
 */
export function listedAnnotations(full: ToolAnnotations): ToolAnnotations {
  const listed: ToolAnnotations = {};
  if (full.readOnlyHint) listed.readOnlyHint = true;
  else {
    if (full.destructiveHint === false) listed.destructiveHint = false;
    if (full.idempotentHint) listed.idempotentHint = true;
  }
  if (full.openWorldHint === false) listed.openWorldHint = false;
  return listed;
}

/**
 * The listed input schema of an operation: its own, with `body` described once in the instructions rather than on
 * every tool, and `fields` where there is an answer to select from (a delete answers nothing worth selecting).
 */
function listedInput(operation: ToolOperation, profile: SchemaProfile): SpecSchema {
  const properties = { ...(operation.inputSchema.properties as Record<string, SpecSchema> | undefined) };
  if (properties.body) {
    const { description: _shared, ...body } = properties.body;
    properties.body = body;
  }
  if (operation.method !== 'DELETE') properties.fields = FIELDS;
  return profileSchema({ ...operation.inputSchema, properties }, profile);
}

function operationTool(service: ServiceName, operation: ToolOperation, profile: SchemaProfile): ToolEntry {
  return {
    name: operationToolName(service, operation.id),
    description: `${operation.summary}${operation.safety === 'spends-quota' ? QUOTA_NOTE : ''}`,
    inputSchema: listedInput(operation, profile),
    annotations: listedAnnotations(annotationsOf(operation.safety, operation.method)),
    target: { kind: 'operation', service, operation },
  };
}

const LOCAL_READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** What the search answers (its `data`): the operations found. */
const SEARCH_OUTPUT: SpecSchema = {
  type: 'object',
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          operationId: { type: 'string' },
          summary: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string' },
          safety: { type: 'string', enum: ['read', 'spends-quota', 'write', 'dangerous'] },
          allowed: { type: 'boolean' },
          inputSchema: { type: 'object' },
        },
      },
    },
    cursor: { type: 'string' },
    remaining: { type: 'integer' },
  },
};

function searchTool(profile: SchemaProfile, writes: boolean): ToolEntry {
  return {
    name: STORE_SEARCH_TOOL,
    description: `Searches the store API's ${storeOperations.length} operations by words in their ids, summaries, paths and parameters; answers each match's id, safety class, whether this server allows it, and its input schema for ${STORE_CALL_TOOL}${writes ? ` (reads) or ${STORE_WRITE_TOOL} (writes)` : ''}.`,
    inputSchema: profileSchema(
      {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for, e.g. "create product" or an operation id.' },
          safety: { type: 'string', enum: ['read', 'write', 'dangerous'], description: 'Only this class.' },
          limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
        },
        required: ['query'],
      },
      profile,
    ),
    outputSchema: SEARCH_OUTPUT,
    annotations: LOCAL_READ,
    target: { kind: 'search' },
  };
}

function callTool(profile: SchemaProfile, writes: boolean): ToolEntry {
  return {
    name: writes ? STORE_WRITE_TOOL : STORE_CALL_TOOL,
    description: writes
      ? `Calls one store API write or dangerous operation by id (find it with ${STORE_SEARCH_TOOL}), if this server allows it; arguments are checked against its input schema before anything is sent. Reads go through ${STORE_CALL_TOOL}.`
      : `Calls one store API read by id (find it with ${STORE_SEARCH_TOOL}); arguments are checked against its input schema before anything is sent. Writes are refused here.`,
    inputSchema: profileSchema(
      {
        type: 'object',
        properties: {
          operationId: {
            type: 'string',
            description: writes ? 'e.g. createProduct, deleteProduct.' : 'e.g. listProducts, getProduct.',
          },
          arguments: {
            type: 'object',
            description: 'Path and query parameters by name, and `body` for the JSON body.',
          },
          fields: FIELDS,
        },
        required: ['operationId'],
      },
      profile,
    ),
    // The read tool reaches reads only; the write tool any write the server allows (the worst case: a delete),
    // said explicitly on this one tool.
    annotations: writes
      ? { readOnlyHint: false, destructiveHint: true }
      : listedAnnotations(annotationsOf('read', 'GET')),
    target: { kind: 'call', writes },
  };
}

function moreTool(profile: SchemaProfile): ToolEntry {
  return {
    name: MORE_TOOL,
    description: 'The next page of an answer that was over the size cap, by the cursor it returned.',
    inputSchema: profileSchema(
      { type: 'object', properties: { cursor: { type: 'string' } }, required: ['cursor'] },
      profile,
    ),
    annotations: LOCAL_READ,
    target: { kind: 'more' },
  };
}

export interface CatalogOptions {
  /** Services to serve (default all three). */
  services?: readonly ServiceName[] | undefined;
  /**
   * Store resources (e.g. `['products', 'orders']`) or single operations (`store.getOrder`, or `getOrder`) that get
   * one tool per operation, beside the search and call tools; `'all'` lists every store operation as a tool.
   */
  storeToolsets?: readonly string[] | 'all' | undefined;
  /** The schemas as listed for a client family (default `default`: the most clients). */
  schemaProfile?: SchemaProfile | undefined;
  /** Tools another module serves (e.g. a code mode), listed after the API tools, before `answer_more`. */
  extraTools?: readonly ToolEntry[] | undefined;
}

/** The store's resources, for `storeToolsets`. */
export const STORE_RESOURCES: readonly string[] = [...new Set(storeOperations.map((operation) => operation.resource))];

/** The store operation a tool-set entry names (`store.getOrder` or `getOrder`), if it names one. */
function storeOperationOf(entry: string): ToolOperation | undefined {
  const id = entry.startsWith('store.') ? entry.slice('store.'.length) : entry;
  return storeOperations.find((operation) => operation.id === id);
}

/** The entries of `toolsets` that name neither a store resource nor a store operation. */
export function unknownToolsets(toolsets: readonly string[]): string[] {
  return toolsets.filter((entry) => !STORE_RESOURCES.includes(entry) && !storeOperationOf(entry));
}

/** Whether the server may send some store write (then the write call tool is listed). */
export function allowsStoreWrites(options: SafetyOptions): boolean {
  return (
    (options.allowWrites?.includes('store') ?? false) ||
    (options.allowDangerous ?? []).some((name) => name.startsWith('store.'))
  );
}

/**
 * The tools a server with `options` lists, in a stable order. Throws on a tool-set entry that names neither a
 * store resource nor a store operation.
 */
export function buildCatalog(options: CatalogOptions & SafetyOptions = {}): ToolEntry[] {
  const services = options.services ?? SERVICES;
  const toolsets = options.storeToolsets ?? [];
  const profile = options.schemaProfile ?? 'default';
  if (toolsets !== 'all') {
    const unknown = unknownToolsets(toolsets);
    if (unknown.length > 0) {
      throw new Error(
        `unknown store tool set ${unknown.join(', ')}; known: ${STORE_RESOURCES.join(', ')}, or an operation as store.<operationId>`,
      );
    }
  }
  const picked = (operation: ToolOperation) =>
    toolsets === 'all' ||
    toolsets.includes(operation.resource) ||
    toolsets.some((entry) => storeOperationOf(entry) === operation);
  const tools: ToolEntry[] = [];
  for (const service of SERVICES) {
    if (!services.includes(service)) continue;
    if (service === 'store') {
      // With every operation a tool of its own, the search and call tools would only repeat them.
      const writes = allowsStoreWrites(options);
      if (toolsets !== 'all') tools.push(searchTool(profile, writes), callTool(profile, false));
      if (toolsets !== 'all' && writes) tools.push(callTool(profile, true));
      for (const operation of storeOperations) {
        if (picked(operation)) tools.push(operationTool('store', operation, profile));
      }
    } else {
      for (const operation of OPERATIONS[service]) tools.push(operationTool(service, operation, profile));
    }
  }
  tools.push(...(options.extraTools ?? []));
  tools.push(moreTool(profile));
  return tools;
}

/** The server's instructions for `tools`: what every tool shares, said once instead of on each tool. */
export function serverInstructions(tools: readonly ToolEntry[]): string {
  const names = new Set(tools.map((tool) => tool.name));
  const lines = [
    'Tools of the directory (MCP servers, plugins, skills), trust (decide whether to interact with a domain) and store (e-commerce admin) APIs.',
  ];
  if (
    tools.some(
      (tool) =>
        tool.target.kind === 'operation' &&
        tool.target.operation.inputSchema.properties &&
        'body' in (tool.target.operation.inputSchema.properties as object),
    )
  ) {
    lines.push('An operation tool takes its path and query parameters by name and its JSON body as `body`.');
  }
  if (names.has(STORE_SEARCH_TOOL)) {
    lines.push(
      `Store: find an operation with ${STORE_SEARCH_TOOL}, then call a read with ${STORE_CALL_TOOL}${names.has(STORE_WRITE_TOOL) ? ` and a write with ${STORE_WRITE_TOOL}` : ''} (\`arguments\`: path and query parameters by name, \`body\` for the JSON body).`,
    );
  }
  lines.push(
    'Every API tool but a delete takes `fields`, a list of dotted paths of the answer to keep (e.g. ["product.id","product.name"]; lists are walked through): use it to keep answers small.',
    `Every tool answers an object: \`data\`, or a \`part\` of a long answer without a list (concatenate the parts, then parse), with \`cursor\` and \`remaining\` when more follows: call ${MORE_TOOL} with the cursor.`,
    'Writes and dangerous operations are refused unless the server was started allowing them; the refusal says how. A tool whose readOnlyHint is false is a write.',
    'Arguments are checked before anything is sent; an argument schema shown as text takes a JSON object as text, and null for an optional argument means absent.',
  );
  return lines.join('\n');
}
