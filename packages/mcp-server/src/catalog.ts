/**
 * The tools a server lists, built from the generated operation table: one tool per directory and trust operation;
 * for the store, a search over its operations and one tool that calls any of them by id, plus, on request, one
 * tool per operation of chosen resources (`products`, `orders`, …); and `answer_more` for capped answers.
 */
import { directoryOperations, storeOperations, trustOperations } from './gen/operations.gen.js';
import { operationToolName } from './names.js';
import type { JsonSchema, ServiceName, ToolOperation } from './operation.js';
import { annotationsOf, type ToolAnnotations } from './safety.js';

export const OPERATIONS: Readonly<Record<ServiceName, readonly ToolOperation[]>> = {
  directory: directoryOperations,
  store: storeOperations,
  trust: trustOperations,
};

export const SERVICES: readonly ServiceName[] = ['directory', 'store', 'trust'];

export const STORE_SEARCH_TOOL = 'store_search_operations';
export const STORE_CALL_TOOL = 'store_call_operation';
export const MORE_TOOL = 'answer_more';

/** What a tool does when called. */
export type ToolTarget =
  | { kind: 'operation'; service: ServiceName; operation: ToolOperation }
  | { kind: 'search' }
  | { kind: 'call' }
  | { kind: 'more' }
  | { kind: 'code'; tool: 'describe' | 'execute' };

export interface ToolEntry {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  target: ToolTarget;
}

const FIELDS: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  description: 'Keep only these dotted field paths of the answer (e.g. ["id","name"]); lists are walked through.',
};

/** Every tool answers an object: `data`, or a `part` of a long answer, and a `cursor` when more follows. */
export const OUTPUT_SCHEMA: JsonSchema = {
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

const CLASS_NOTE: Record<ToolOperation['safety'], string> = {
  read: 'Read-only.',
  'spends-quota': 'Read-only; spends one scan of the API key’s monthly quota per domain.',
  write: 'Write: refused unless the server allows this API’s writes.',
  dangerous: 'Dangerous: refused unless the server allows this operation by id.',
};

function operationTool(service: ServiceName, operation: ToolOperation): ToolEntry {
  const input = operation.inputSchema as { properties?: Record<string, JsonSchema> };
  return {
    name: operationToolName(service, operation.id),
    description: `${operation.summary} (${operation.method} ${operation.path}) ${CLASS_NOTE[operation.safety]}`,
    inputSchema: { ...operation.inputSchema, properties: { ...input.properties, fields: FIELDS } },
    outputSchema: OUTPUT_SCHEMA,
    annotations: annotationsOf(operation.safety, operation.method),
    target: { kind: 'operation', service, operation },
  };
}

const READ = annotationsOf('read', 'GET');

const searchTool: ToolEntry = {
  name: STORE_SEARCH_TOOL,
  description: `Searches the store API's ${storeOperations.length} operations by words in their ids, summaries, paths and parameters; answers each match's id, safety class, whether this server allows it, and its input schema for ${STORE_CALL_TOOL}.`,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words to look for, e.g. "create product" or an operation id.' },
      safety: { type: 'string', enum: ['read', 'write', 'dangerous'], description: 'Only this class.' },
      limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMA,
  annotations: { ...READ, openWorldHint: false },
  target: { kind: 'search' },
};

const callTool: ToolEntry = {
  name: STORE_CALL_TOOL,
  description: `Calls one store API operation by id (find it with ${STORE_SEARCH_TOOL}); arguments are checked against its input schema before anything is sent. Writes and dangerous operations are refused unless the server allows them.`,
  inputSchema: {
    type: 'object',
    properties: {
      operationId: { type: 'string', description: 'e.g. listProducts, getProduct, createProduct.' },
      arguments: {
        type: 'object',
        description: 'Path and query parameters by name, and `body` for the JSON body.',
        additionalProperties: true,
      },
      fields: FIELDS,
    },
    required: ['operationId'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMA,
  // The operation decides: the hints cover the worst case.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  target: { kind: 'call' },
};

const moreTool: ToolEntry = {
  name: MORE_TOOL,
  description: 'The next page of an answer that was over the size cap, by the cursor it returned.',
  inputSchema: {
    type: 'object',
    properties: { cursor: { type: 'string' } },
    required: ['cursor'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMA,
  annotations: { ...READ, openWorldHint: false },
  target: { kind: 'more' },
};

export interface CatalogOptions {
  /** Services to serve (default all three). */
  services?: readonly ServiceName[] | undefined;
  /**
   * Store resources that get one tool per operation (e.g. `['products', 'orders']`), beside the search and call
   * tools; `'all'` lists every store operation as a tool (about 179 tools: costly for a model's context).
   */
  storeToolsets?: readonly string[] | 'all' | undefined;
}

/** The store's resources, for `storeToolsets`. */
export const STORE_RESOURCES: readonly string[] = [...new Set(storeOperations.map((operation) => operation.resource))];

/** The tools a server with `options` lists, in a stable order. Throws on an unknown store resource. */
export function buildCatalog(options: CatalogOptions = {}): ToolEntry[] {
  const services = options.services ?? SERVICES;
  const toolsets = options.storeToolsets ?? [];
  if (toolsets !== 'all') {
    const unknown = toolsets.filter((resource) => !STORE_RESOURCES.includes(resource));
    if (unknown.length > 0) {
      throw new Error(`unknown store tool set ${unknown.join(', ')}; known: ${STORE_RESOURCES.join(', ')}`);
    }
  }
  const tools: ToolEntry[] = [];
  for (const service of SERVICES) {
    if (!services.includes(service)) continue;
    if (service === 'store') {
      tools.push(searchTool, callTool);
      for (const operation of storeOperations) {
        if (toolsets === 'all' || toolsets.includes(operation.resource)) tools.push(operationTool('store', operation));
      }
    } else {
      for (const operation of OPERATIONS[service]) tools.push(operationTool(service, operation));
    }
  }
  tools.push(moreTool);
  return tools;
}
