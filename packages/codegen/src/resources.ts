/**
 * Resource methods (`store.products.variants.create(productId, {...})`) for every operation of a final document,
 * named by a rule from its path and operationId, with a short list of explicit names where the rule reads badly.
 *
 * The rule:
 * 1. The resource chain is the path's resource segments in camelCase: templates, `<filter>/{param}` pairs
 *    (`status`, `category`, `email`, `after`) and a trailing `count`/`search` are not resources
 *    (`/products/{id}/variants/{variant_id}.json` → `products.variants`).
 * 2. A first segment `<word>_<rest>` whose `<word>` (or `<word>s`) is another first segment of the document nests
 *    under it (`/customer_categories` → `customers.categories`), and a singular first segment whose plural is one
 *    joins it (`/order/{id}/fulfillments` → `orders.fulfillments`).
 * 3. The method is the operationId's verb (its leading lower-case word) plus the filter suffix (`listByStatus`,
 *    `countByCategory`, `getByEmail`, `listAfter`). A `get` of a path that ends at a collection segment reads
 *    one object, not a collection, so that segment moves into the method name (`store.getInfo()`,
 *    `fulfillments.getLabel(id)`).
 * 4. `METHOD_OVERRIDES` (keyed by operationId) wins where the rule reads badly or two operations would collide.
 *
 * Inputs: path parameters as leading arguments in template order, then one params object (the body's fields
 * without its envelope where the body wraps one resource, e.g. `{ product: {...} }`, and without the envelope of
 * each record of an array field that wraps them, e.g. `variants: [{ variant: {...} }]`; for operations without a
 * body, the query), then per-call options. An `update…` sent with PUT or PATCH patches: its params are all
 * optional. Results are unwrapped the same way (each record of an array; a listing's pages too).
 */

import type { ManifestOperation, ResourceMethod } from '@agent-apis/core/service';
import { pascalCase, readPath, singular } from '@agent-apis/specs/naming';
import {
  effectiveParameters,
  type OpenApiDocument,
  type OperationRef,
  resolveRef,
  type Schema,
} from '@agent-apis/specs/openapi';
import { templateVariables } from '@agent-apis/specs/paths';
import { parsedJson, propertyKey, tsConstType } from './ts-literal.ts';

/** A resource method with the operation it sends, as the emitters read it from a manifest row. */
export type Method = ResourceMethod & {
  readonly operationId: string;
  readonly httpMethod: string;
  readonly path: string;
  readonly hasBody: boolean;
  readonly summary: string;
};

/** Explicit names, keyed by operationId: `resource.chain.method`. Each says why the rule's name reads badly. */
export const METHOD_OVERRIDES: Readonly<Record<string, string>> = {
  // The rule reads `get` + a collection segment; the answer is the list of history entries.
  getOrderHistory: 'orders.history.list',
  // `products.reviews.list` is the reviews of one product (`/products/{id}/reviews`).
  listAllProductReviews: 'products.reviews.listAll',
  // A quote computed by the platform, not a stored "rates" resource.
  calculateFulfillmentRates: 'fulfillments.calculateRates',
  // Membership of a customer category: the customers are not sub-records of the category.
  listCustomerCategoryCustomers: 'customers.categories.listCustomers',
  addCustomersToCustomerCategory: 'customers.categories.addCustomers',
  removeCustomerFromCustomerCategory: 'customers.categories.removeCustomer',
  // The segment is itself the action.
  checkAppBillingCycleOrder: 'apps.checkBillingCycleOrder',
  // Creates the store itself.
  createStore: 'store.setup',
  // `jsapps.list` is every JsApp; this one lists the JsApps of one app code.
  listJsappsByApp: 'jsapps.listByApp',
};

function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** Rule 2: where a first path segment belongs, as a chain of snake_case names. */
function topLevelChain(segment: string, firstSegments: ReadonlySet<string>): string[] {
  if (firstSegments.has(`${segment}s`)) return [`${segment}s`];
  const match = /^([a-z]+)_(.+)$/.exec(segment);
  if (match) {
    const [, word, rest] = match as unknown as [string, string, string];
    const parent = firstSegments.has(word) ? word : firstSegments.has(`${word}s`) ? `${word}s` : undefined;
    if (parent && parent !== segment) return [parent, rest];
  }
  return [segment];
}

/** Rules 1–3: resource chain and method name of one operation. */
export function resourceName(
  method: string,
  path: string,
  operationId: string,
  firstSegments: ReadonlySet<string>,
): { resource: string[]; method: string } {
  const override = METHOD_OVERRIDES[operationId];
  if (override) {
    const parts = override.split('.');
    return { resource: parts.slice(0, -1), method: parts.at(-1) as string };
  }
  const { resources: pathResources, suffix, action, endsAtItem } = readPath(path);
  const [first, ...rest] = pathResources;
  const resources = first === undefined ? [] : [...topLevelChain(first, firstSegments), ...rest];
  const verb = /^[a-z]+/.exec(operationId)?.[0];
  if (!verb) throw new Error(`cannot name ${method.toUpperCase()} ${path}: operationId ${operationId} has no verb`);
  let name = action ?? verb;
  if (!action && !endsAtItem && verb === 'get' && resources.length > 1) {
    name += pascalCase(resources.pop() as string);
  }
  return { resource: resources.map(camelCase), method: name + suffix };
}

type SchemaObject = Schema & { properties?: Record<string, Schema>; items?: Schema; required?: string[] };

function schemaAt(document: OpenApiDocument, schema: unknown): SchemaObject | undefined {
  return schema ? resolveRef<SchemaObject>(document, schema as SchemaObject) : undefined;
}

function jsonSchemaOf(document: OpenApiDocument, holder: unknown): SchemaObject | undefined {
  const resolved = holder
    ? resolveRef<{ content?: Record<string, { schema?: unknown }> }>(document, holder)
    : undefined;
  return schemaAt(document, resolved?.content?.['application/json']?.schema);
}

function isObjectSchema(schema: SchemaObject | undefined): boolean {
  return schema !== undefined && (schema.type === 'object' || (schema.type === undefined && !!schema.properties));
}

/** The one property of an object schema whose value is itself an object: the envelope of a single resource. */
function envelopeKey(document: OpenApiDocument, schema: SchemaObject | undefined): string {
  if (!isObjectSchema(schema)) return '';
  const entries = Object.entries(schema?.properties ?? {});
  if (entries.length !== 1) return '';
  const [key, inner] = entries[0] as [string, Schema];
  return isObjectSchema(schemaAt(document, inner)) ? key : '';
}

function successResponse(ref: OperationRef): unknown {
  const responses = (ref.operation.responses ?? {}) as Record<string, unknown>;
  const status = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort()[0];
  return status ? responses[status] : undefined;
}

/** The first path segments of a document's operations (rule 2 nests a compound segment under one of them). */
export function firstSegmentsOf(refs: readonly OperationRef[]): Set<string> {
  return new Set(refs.map((ref) => readPath(ref.path).resources[0] ?? ''));
}

const patches = (ref: OperationRef, operationId: string) =>
  /^update[A-Z]/.test(operationId) && ['PUT', 'PATCH'].includes(ref.method.toUpperCase());

/** The resource method of one operation (the manifest's `resourceMethod`). */
export function describeResourceMethod(
  document: OpenApiDocument,
  ref: OperationRef,
  firstSegments: ReadonlySet<string>,
): ResourceMethod {
  const operationId = ref.operation.operationId as string;
  const name = resourceName(ref.method, ref.path, operationId, firstSegments);
  const parameters = effectiveParameters(document, ref);
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const requestBody = ref.operation.requestBody
    ? resolveRef<{ required?: boolean }>(document, ref.operation.requestBody as { required?: boolean })
    : undefined;
  const bodySchema = jsonSchemaOf(document, requestBody);
  const bodyKey = envelopeKey(document, bodySchema);
  const inner = bodyKey ? schemaAt(document, bodySchema?.properties?.[bodyKey]) : bodySchema;
  const nestedKeys: Record<string, string> = {};
  for (const [field, raw] of Object.entries(inner?.properties ?? {})) {
    const property = schemaAt(document, raw);
    const key = property?.type === 'array' ? envelopeKey(document, schemaAt(document, property.items)) : '';
    if (key) nestedKeys[field] = key;
  }

  const result = jsonSchemaOf(document, successResponse(ref));
  const isArray = result?.type === 'array';
  const names = new Set(query.map((parameter) => parameter.name));
  const paged = isArray && names.has('page') && names.has('limit');
  const filters = query.filter((parameter) => !(paged && parameter.name === 'page'));
  const hasBody = requestBody !== undefined;
  return {
    ...name,
    pathParams: templateVariables(ref.path).map((variable) => {
      const schema = schemaAt(
        document,
        parameters.find((parameter) => parameter.in === 'path' && parameter.name === variable)?.schema,
      );
      return { name: variable, type: schema?.type === 'integer' || schema?.type === 'number' ? 'number' : 'string' };
    }),
    bodyKey,
    nestedKeys,
    patches: hasBody && patches(ref, operationId),
    resultKey: envelopeKey(document, isArray ? schemaAt(document, result?.items) : result),
    kind: paged ? 'list' : isArray ? 'items' : 'one',
    takesParams: hasBody || filters.length > 0,
    paramsRequired: hasBody
      ? requestBody?.required === true && (inner?.required?.length ?? 0) > 0 && !patches(ref, operationId)
      : filters.some((parameter) => parameter.required === true),
  };
}

/** The resource methods of a manifest's operations, in order; throws on a name two operations share. */
export function resourceMethods(operations: readonly ManifestOperation[]): Method[] {
  const taken = new Map<string, string>();
  for (const operation of operations) {
    const where = [...operation.resourceMethod.resource, operation.resourceMethod.method].join('.');
    const clash = taken.get(where);
    if (clash) throw new Error(`resource method ${where} would name both ${clash} and ${operation.id}`);
    taken.set(where, operation.id);
  }
  for (const where of taken.keys()) {
    if ([...taken.keys()].some((other) => other.startsWith(`${where}.`))) {
      throw new Error(`resource method ${where} has the same name as a resource under it`);
    }
  }
  return operations.map((operation) => ({
    ...operation.resourceMethod,
    operationId: operation.id,
    httpMethod: operation.method,
    path: operation.path,
    hasBody: operation.hasBody === true,
    summary: operation.summary,
  }));
}

/** `ProductVariant` for `['products', 'variants']`. */
function typePrefix(resource: readonly string[]): string {
  return resource.map((name) => pascalCase(singular(name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)))).join('');
}

/** The generated names of a method's params and result types, e.g. `ProductVariantCreateParams`. */
export function typeNames(method: Pick<ResourceMethod, 'resource' | 'method'>): { params: string; result: string } {
  const base = `${typePrefix(method.resource)}${pascalCase(method.method)}`;
  return { params: `${base}Params`, result: `${base}Result` };
}

interface Tree {
  [name: string]: Tree | Method;
}

function treeOf(methods: readonly Method[]): Tree {
  const root: Tree = {};
  for (const method of methods) {
    let node = root;
    for (const name of method.resource) {
      node[name] ??= {};
      node = node[name] as Tree;
    }
    node[method.method] = method;
  }
  return root;
}

function isMethod(value: Tree | Method): value is Method {
  return typeof (value as Method).operationId === 'string';
}

/**
 * A method's row: `[operationId, bodyKey, resultKey, kind, nestedKeys]`, trailing defaults (`''`, `''`, `'one'`,
 * none) left out.
 */
function tableRow(method: Method): unknown[] {
  const nested = Object.keys(method.nestedKeys).length > 0 ? method.nestedKeys : undefined;
  const row: unknown[] = [method.operationId, method.bodyKey, method.resultKey, method.kind, nested];
  const defaults: unknown[] = ['', '', '', 'one', undefined];
  while (row.length > 1 && row[row.length - 1] === defaults[row.length - 1]) row.pop();
  return row;
}

/** The runtime table of `tree`: resource → method → row (see {@link tableRow}), nested as the resources are. */
function tableOf(tree: Tree): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(tree).map(([name, value]) => [name, isMethod(value) ? tableRow(value) : tableOf(value)]),
  );
}

function signature(method: Method): string {
  const { params, result } = typeNames(method);
  const args = method.pathParams.map((param) => `${camelCase(param.name)}: ${param.type}`);
  if (method.takesParams) args.push(`params${method.paramsRequired ? '' : '?'}: ${params}`);
  args.push(
    `options?: ${method.hasBody ? `ResourceOptions<${JSON.stringify(method.operationId)}>` : 'RequestOptions'}`,
  );
  const returns = method.kind === 'list' ? `Paginator<${result}[], ${result}>` : `ApiPromise<${result}>`;
  return `(${args.join(', ')}): ${returns}`;
}

function renderInterface(tree: Tree, indent: string): string {
  const inner = `${indent}  `;
  const lines = Object.entries(tree).map(([name, value]) => {
    if (!isMethod(value)) return `${inner}readonly ${propertyKey(name)}: ${renderInterface(value, inner)};`;
    const doc = `${value.summary.replace(/\*\//g, '*\\/')} (\`${value.httpMethod} ${value.path}\`, \`api.${value.operationId}\`)`;
    return `${inner}/** ${doc} */\n${inner}${propertyKey(name)}${signature(value)};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function renderTypes(method: Method): string {
  const { params, result } = typeNames(method);
  const id = JSON.stringify(method.operationId);
  const key = JSON.stringify(method.bodyKey);
  const resultKey = JSON.stringify(method.resultKey);
  const lines: string[] = [];
  if (method.takesParams) {
    const nested = Object.keys(method.nestedKeys).length > 0 ? `, ${JSON.stringify(method.nestedKeys)}` : '';
    const body = `BodyParams<${id}, ${key}${nested}>`;
    const source = method.hasBody
      ? method.patches
        ? `Partial<${body}>`
        : body
      : method.kind === 'list'
        ? `ListFilters<${id}>`
        : `QueryParams<${id}>`;
    lines.push(`export type ${params} = ${source};`);
  }
  const shape =
    method.kind === 'one'
      ? `Unwrapped<StoreOperationResult<${id}>, ${resultKey}>`
      : `Unwrapped<ItemOf<${id}>, ${resultKey}>`;
  lines.push(`export type ${result} = ${shape};`);
  return lines.join('\n');
}

/**
 * Source of `resources.gen.ts` (without banner): the runtime table, the interface of every resource method
 * (documented), and per method `<Resource><Method>Params` (what `params` takes) and `…Result` (what the method
 * resolves to; for a listing, one record).
 */
export function renderResourcesModule(operations: readonly ManifestOperation[]): string {
  const methods = resourceMethods(operations);
  const tree = treeOf(methods);
  const table = tableOf(tree);
  return `import type { ApiPromise, Paginator, RequestOptions } from '@agent-apis/core';
import type { StoreOperationResult } from '../api.js';
import type { ListFilters } from '../pagination.js';
import type { BodyParams, ItemOf, QueryParams, ResourceOptions, Unwrapped } from '../resources.js';

/**
 * Every resource method: resource → method → [operationId, body envelope key, result envelope key, kind,
 * nested envelope keys]. An empty key means no envelope; kind \`list\` walks pages, \`items\` is one array,
 * \`one\` one value; nested keys name the array fields whose records each go in an envelope
 * (\`{ variants: "variant" }\`). Trailing defaults are left out: \`["getStoreInfo"]\` is
 * \`["getStoreInfo", "", "", "one"]\`.
 */
export const resourceTable: ${tsConstType(table)} = ${parsedJson(table)};

/** The resource methods of a store client. */
export interface StoreResources ${renderInterface(tree, '')}

${methods.map(renderTypes).join('\n')}
`;
}
