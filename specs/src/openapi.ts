/** Just enough OpenAPI typing for the pipeline's checks. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths?: Record<string, PathItem>;
  components?: { parameters?: Record<string, Parameter | Reference>; [key: string]: unknown };
  [key: string]: unknown;
}

export interface Reference {
  $ref: string;
}

export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  $ref?: string;
  [key: string]: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  [key: string]: unknown;
}

export interface Operation {
  operationId?: string;
  parameters?: (Parameter | Reference)[];
  [key: string]: unknown;
}

export type PathItem = { parameters?: (Parameter | Reference)[] } & { [method: string]: unknown };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationRef {
  method: (typeof HTTP_METHODS)[number];
  path: string;
  operation: Operation;
  pathItem: PathItem;
}

export function listOperations(document: OpenApiDocument): OperationRef[] {
  const operations: OperationRef[] = [];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as Operation | undefined;
      if (operation) operations.push({ method, path, operation, pathItem });
    }
  }
  return operations;
}

/** Follows a local `#/...` JSON pointer. */
export function resolveRef<T>(document: OpenApiDocument, value: T | Reference): T {
  let current: unknown = value;
  for (let hops = 0; hops < 20 && isReference(current); hops++) {
    const pointer = current.$ref;
    if (!pointer.startsWith('#/')) throw new Error(`only local references are supported, got ${pointer}`);
    current = pointer
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
    if (current === undefined) throw new Error(`unresolved reference ${pointer}`);
  }
  return current as T;
}

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).$ref === 'string';
}

/** Path-item parameters overridden by operation parameters with the same name and location. */
export function effectiveParameters(document: OpenApiDocument, ref: OperationRef): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...(ref.pathItem.parameters ?? []), ...(ref.operation.parameters ?? [])]) {
    const parameter = resolveRef<Parameter>(document, raw);
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}
