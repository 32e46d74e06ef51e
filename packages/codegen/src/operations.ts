import {
  effectiveParameters,
  listOperations,
  type OpenApiDocument,
  type Operation,
  resolveRef,
  type Schema,
} from '@agent-apis/specs/openapi';
import { templateVariables } from '@agent-apis/specs/paths';
import { parsedJson, tsConstType } from './ts-literal.ts';

export type ParameterType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'unknown';

/** What the runtime needs to check one query parameter before sending. */
export interface QueryParameterDescriptor {
  required: boolean;
  type: ParameterType;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  /** `false` when an array is sent comma-separated (`explode: false`). */
  explode?: boolean;
}

/** One row of the generated `operations` table. */
export interface OperationDescriptor {
  id: string;
  method: string;
  path: string;
  /** Path template variables, in template order. */
  pathParams: string[];
  /** Type, enum and range of each path parameter. */
  pathTypes: Record<string, QueryParameterDescriptor>;
  query: Record<string, QueryParameterDescriptor>;
  hasBody: boolean;
  bodyRequired: boolean;
  /**
   * Required properties of a POST body, as dotted paths (`product.name`): each one must be present whenever
   * the object holding it is. PUT bodies patch, so their (upstream-shared) required lists are not enforced.
   */
  requiredBodyFields: string[];
  /** The lowest 2xx status the operation declares. */
  successStatus: number;
  /** Whether that success response is JSON (so a text answer is a broken response, not data). */
  successJson: boolean;
  /** Declared 4xx/5xx statuses, ascending (ranges such as `4XX` and `default` are left out). */
  errorStatuses: number[];
  /**
   * Security alternatives: the request must satisfy one entry, and each entry lists the schemes it needs
   * together. `[]` means no authentication; an empty entry means anonymous access is one of the options.
   */
  security: string[][];
}

interface RequestBody {
  required?: boolean;
  content?: Record<string, { schema?: Schema }>;
}

/** How deep the required-field walk goes into a body (`product.variants` is two levels). */
const MAX_BODY_DEPTH = 3;

/**
 * The required properties of a JSON body schema as dotted paths, following nested objects (not arrays) down to
 * {@link MAX_BODY_DEPTH} levels. Composed schemas (`allOf`/`oneOf`/`anyOf`) are left to the server.
 */
function requiredFields(document: OpenApiDocument, rawSchema: Schema | undefined, prefix = '', depth = 0): string[] {
  const schema = rawSchema && resolveRef<Schema>(document, rawSchema);
  if (!schema || depth >= MAX_BODY_DEPTH) return [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const fields = required.filter((name) => name in properties).map((name) => `${prefix}${name}`);
  for (const [name, property] of Object.entries(properties)) {
    fields.push(...requiredFields(document, property, `${prefix}${name}.`, depth + 1));
  }
  return fields;
}

function jsonBodySchema(body: RequestBody | undefined): Schema | undefined {
  const media = Object.entries(body?.content ?? {}).find(([type]) => /^application\/([\w.-]+\+)?json\b/.test(type));
  return media?.[1].schema;
}

const PARAMETER_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** The parameter's JSON type: the first non-null entry of `type`, else what its `enum` values are. */
function parameterType(schema: Schema | undefined): ParameterType {
  const declared = Array.isArray(schema?.type) ? schema.type : schema?.type ? [schema.type] : [];
  const type = declared.find((entry) => entry !== 'null');
  if (type) return PARAMETER_TYPES.has(type) ? (type as ParameterType) : 'unknown';
  const kinds = new Set((schema?.enum ?? []).filter((value) => value !== null).map((value) => typeof value));
  const only = kinds.size === 1 ? [...kinds][0] : undefined;
  return only === 'string' || only === 'number' || only === 'boolean' ? only : 'unknown';
}

function describeQueryParameter(document: OpenApiDocument, rawSchema: Schema | undefined, required = false) {
  const schema = rawSchema && resolveRef<Schema>(document, rawSchema);
  const descriptor: QueryParameterDescriptor = { required, type: parameterType(schema) };
  if (Array.isArray(schema?.enum)) descriptor.enum = schema.enum;
  if (typeof schema?.minimum === 'number') descriptor.minimum = schema.minimum;
  if (typeof schema?.maximum === 'number') descriptor.maximum = schema.maximum;
  if (schema && 'default' in schema) descriptor.default = schema.default;
  return descriptor;
}

function numericStatuses(operation: Operation): number[] {
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  return Object.keys(responses)
    .filter((code) => /^\d{3}$/.test(code))
    .map(Number)
    .sort((a, b) => a - b);
}

function securityAlternatives(document: OpenApiDocument, operation: Operation): string[][] {
  const requirements = (operation.security ?? document.security ?? []) as Record<string, unknown>[];
  return requirements.map((requirement) => Object.keys(requirement).sort());
}

/** Whether the operation's `status` response declares only JSON content (`application/json`, `*+json`). */
function isJsonResponse(document: OpenApiDocument, operation: Operation, status: number): boolean {
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  const raw = responses[String(status)];
  if (!raw) return false;
  const response = resolveRef<{ content?: Record<string, unknown> }>(
    document,
    raw as { content?: Record<string, unknown> },
  );
  const types = Object.keys(response.content ?? {});
  return types.length > 0 && types.every((type) => /^application\/([\w.-]+\+)?json\b/.test(type));
}

/**
 * Describes every operation of a final document, keyed by operationId, in document order.
 * Throws when an operation has no operationId or declares no 2xx response.
 */
export function describeOperations(document: OpenApiDocument): Record<string, OperationDescriptor> {
  const table: Record<string, OperationDescriptor> = {};
  for (const ref of listOperations(document)) {
    const where = `${ref.method.toUpperCase()} ${ref.path}`;
    const id = ref.operation.operationId;
    if (!id) throw new Error(`${where} has no operationId`);
    const statuses = numericStatuses(ref.operation);
    const successStatus = statuses.find((status) => status >= 200 && status < 300);
    if (successStatus === undefined) throw new Error(`${where} (${id}) declares no 2xx response`);

    const query: Record<string, QueryParameterDescriptor> = {};
    const pathTypes: Record<string, QueryParameterDescriptor> = {};
    for (const parameter of effectiveParameters(document, ref)) {
      if (parameter.in === 'query') {
        const descriptor = describeQueryParameter(document, parameter.schema, parameter.required === true);
        if (parameter.explode === false) descriptor.explode = false;
        query[parameter.name] = descriptor;
      } else if (parameter.in === 'path') {
        pathTypes[parameter.name] = describeQueryParameter(document, parameter.schema, true);
      }
    }
    const body = ref.operation.requestBody
      ? resolveRef<RequestBody>(document, ref.operation.requestBody as RequestBody)
      : undefined;

    table[id] = {
      id,
      method: ref.method.toUpperCase(),
      path: ref.path,
      pathParams: templateVariables(ref.path),
      pathTypes,
      query,
      hasBody: body !== undefined,
      bodyRequired: body?.required === true,
      requiredBodyFields: ref.method.toLowerCase() === 'post' ? requiredFields(document, jsonBodySchema(body)) : [],
      successStatus,
      successJson: isJsonResponse(document, ref.operation, successStatus),
      errorStatuses: statuses.filter((status) => status >= 400),
      security: securityAlternatives(document, ref.operation),
    };
  }
  return table;
}

/** A query or path constraint as shipped: `required` only when true (path parameters are always required). */
function shippedConstraint(constraint: QueryParameterDescriptor, inPath: boolean): Partial<QueryParameterDescriptor> {
  const { required, ...rest } = constraint;
  return required && !inPath ? { required, ...rest } : rest;
}

function shippedConstraints(constraints: Record<string, QueryParameterDescriptor>, inPath: boolean) {
  return Object.fromEntries(
    Object.entries(constraints).map(([name, constraint]) => [name, shippedConstraint(constraint, inPath)]),
  );
}

/**
 * What the runtime reads of a descriptor, as compact as every bundle of a client carries it: statuses and
 * security alternatives stay in the codegen table (for the generators that need them), and a field at its
 * default (no path parameters, no query, no body, a parameter not required, a JSON answer) is left out.
 */
function runtimeFields(descriptor: OperationDescriptor): Record<string, unknown> {
  const { id, method, path, pathParams, pathTypes, query, hasBody, bodyRequired, requiredBodyFields, successJson } =
    descriptor;
  const shipped: Record<string, unknown> = { id, method, path };
  if (pathParams.length > 0) {
    shipped.pathParams = pathParams;
    shipped.pathTypes = shippedConstraints(pathTypes, true);
  }
  if (Object.keys(query).length > 0) shipped.query = shippedConstraints(query, false);
  if (hasBody) shipped.hasBody = true;
  if (bodyRequired) shipped.bodyRequired = true;
  if (requiredBodyFields.length > 0) shipped.requiredBodyFields = requiredBodyFields;
  if (!successJson) shipped.successJson = false;
  return shipped;
}

/**
 * Source of `operations.gen.ts` (without banner): the table as data, one constant per row. Each row is JSON text
 * parsed at import (`JSON.parse('…')` marked `@__PURE__`: cheaper to evaluate than an object literal, and still dropped
 * by a bundler when unused), typed with the literal type `as const` would give it; the table `satisfies` core's
 * `Operation` type (core owns the type; nothing here restates it).
 */
export function renderOperationsModule(table: Record<string, OperationDescriptor>): string {
  return `import type { Operation } from '@agent-apis/core';

${Object.entries(table)
  .map(([id, descriptor]) => {
    const row = runtimeFields(descriptor);
    return `/** \`${descriptor.method} ${descriptor.path}\` */\nexport const ${operationConstName(id)}: ${tsConstType(row)} = ${parsedJson(row)};\n`;
  })
  .join('\n')}
/** Every operation of the spec, keyed by operationId. */
export const operations = {
${Object.keys(table)
  .map((id) => `  ${JSON.stringify(id)}: ${operationConstName(id)},`)
  .join('\n')}
} as const satisfies Readonly<Record<string, Operation>>;

export type OperationId = keyof typeof operations;
`;
}

/** The name of an operation's descriptor constant: `getProduct` → `getProductOperation`. */
export function operationConstName(operationId: string): string {
  return `${operationId.replace(/[^\w$]/g, '_')}Operation`;
}

/** What the generated function of an operation needs: hey-api's type names for it and whether options are optional. */
export interface ApiSignature {
  id: string;
  /** The `…Data` type of its options. */
  data: string;
  /** The `…Responses` type, keyed by status. */
  responses: string;
  /** Whether the options may be left out: no path parameter, no required query parameter, no required body. */
  optional: boolean;
}

/** hey-api's type name prefix of an operation: its operationId with a capital first letter. */
function typePrefix(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/** The signature of every operation's function, from the table alone (the rule hey-api's types follow). */
export function apiSignatures(table: Record<string, OperationDescriptor>): ApiSignature[] {
  return Object.values(table).map((descriptor) => ({
    id: descriptor.id,
    data: `${typePrefix(descriptor.id)}Data`,
    responses: `${typePrefix(descriptor.id)}Responses`,
    optional:
      descriptor.pathParams.length === 0 &&
      !descriptor.bodyRequired &&
      !Object.values(descriptor.query).some((constraint) => constraint.required),
  }));
}

/**
 * Source of `api.gen.ts` (without banner): one tree-shakable function per operation that takes a client, e.g.
 * `getProduct(client, { path: { id } })`, typed with hey-api's types and sending the operation's row of the table.
 */
export function renderApiModule(signatures: readonly ApiSignature[]): string {
  const types = signatures.flatMap((signature) => [signature.data, signature.responses]).sort();
  const constants = signatures.map((signature) => operationConstName(signature.id)).sort();
  const functions = signatures.map(
    ({ id, data, responses, optional }) =>
      `/** Sends \`${id}\` through \`client\`; resolves to the parsed body or throws an \`AgentApiError\`. */
export function ${id}(client: OperationClient, options${optional ? '?' : ''}: OperationOptions<${data}>): ApiPromise<${responses}[keyof ${responses}]> {
  return sendOperation(client, ${operationConstName(id)}, options);
}
`,
  );
  return `import type { ApiPromise, OperationClient, OperationOptions } from '@agent-apis/core';
import { sendOperation } from '@agent-apis/core/service';
import { ${constants.join(', ')} } from './operations.gen.js';
import type { ${types.join(', ')} } from './types.gen.js';

${functions.join('\n')}`;
}
