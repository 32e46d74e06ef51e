import type { Operation } from '@agent-apis/core';
import type { ManifestOperation } from '@agent-apis/core/service';
import { parsedJson, tsConstType } from './ts-literal.ts';

/** The runtime row's fields, in the order `operations.gen.ts` ships them. */
const RUNTIME_FIELDS = [
  'id',
  'method',
  'path',
  'pathParams',
  'pathTypes',
  'query',
  'hasBody',
  'bodyRequired',
  'requiredBodyFields',
  'successJson',
] as const satisfies readonly (keyof Operation)[];

/**
 * What the runtime reads of a manifest row: core's `Operation`, which the manifest already holds in shipped form
 * (a field at its default — no path parameters, no query, no body, a parameter not required, a JSON answer — is left
 * out), so every bundle of a client carries it compactly.
 */
export function runtimeRow(operation: ManifestOperation): Operation {
  const row: Record<string, unknown> = {};
  for (const field of RUNTIME_FIELDS) if (operation[field] !== undefined) row[field] = operation[field];
  return row as unknown as Operation;
}

/**
 * Source of `operations.gen.ts` (without banner): the table as data, one constant per row. Each row is JSON text
 * parsed at import (`JSON.parse('…')` marked `@__PURE__`: cheaper to evaluate than an object literal, and still dropped
 * by a bundler when unused), typed with the literal type `as const` would give it; the table `satisfies` core's
 * `Operation` type (core owns the type; nothing here restates it).
 */
export function renderOperationsModule(operations: readonly ManifestOperation[]): string {
  return `import type { Operation } from '@agent-apis/core';

${operations
  .map((operation) => {
    const row = runtimeRow(operation);
    return `/** \`${operation.method} ${operation.path}\` */\nexport const ${operationConstName(operation.id)}: ${tsConstType(row)} = ${parsedJson(row)};\n`;
  })
  .join('\n')}
/** Every operation of the spec, keyed by operationId. */
export const operations = {
${operations.map(({ id }) => `  ${JSON.stringify(id)}: ${operationConstName(id)},`).join('\n')}
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
export function apiSignatures(operations: readonly ManifestOperation[]): ApiSignature[] {
  return operations.map((operation) => ({
    id: operation.id,
    data: `${typePrefix(operation.id)}Data`,
    responses: `${typePrefix(operation.id)}Responses`,
    optional:
      (operation.pathParams ?? []).length === 0 &&
      !operation.bodyRequired &&
      !Object.values(operation.query ?? {}).some((constraint) => constraint.required),
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
