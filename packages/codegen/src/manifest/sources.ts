/**
 * Where a live run takes each path parameter from, so that no invented id reaches a live service. Per
 * operation and path parameter, in this order:
 *
 * 1. an OpenAPI `link` declared on another operation's response (the contract overlays; `$response.body#/…`);
 * 2. `x-contract-source: { env, resource }` on the parameter: a value only the operator knows (an app code);
 * 3. the parameter's `enum`: a documented value, not an invented one;
 * 4. the rule: the parameter comes from the first entry of the list operation (a GET answering an array) at the
 *    path before the parameter's segment (`/products/{id}/variants/{variant_id}.json` ← `/products/{id}/variants.json`),
 *    from the entry's field named like the parameter, else its last word (`variant_id` → `id`,
 *    `country_code` → `code`), else `id`; the list's own path parameters are the target's, by position.
 *
 * A parameter with none of these has no source (`undefined`), which `sources.test.ts` forbids.
 *
 * `x-contract-cursor: { parameter, source }` on an operation (the contract overlays) marks a path parameter as a
 * cursor, not a lookup key: `/orders/after/{id}` answers what comes after the id, and the vendor documents a 404
 * when nothing does (the newest id). `source` says where that is documented.
 */

import type { InputSource } from '@agent-apis/core/service';
import {
  effectiveParameters,
  listOperations,
  type OpenApiDocument,
  type OperationRef,
  type Parameter,
  resolveRef,
} from '@agent-apis/specs/openapi';

type Schema = Record<string, unknown>;

function pathParameters(document: OpenApiDocument, ref: OperationRef): Parameter[] {
  return effectiveParameters(document, ref).filter((p) => p.in === 'path');
}

/** `mcpServer` → `mcp server`, `customer_additional_field` → `customer additional field`. */
export function humanize(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase();
}

function successSchema(document: OpenApiDocument, ref: OperationRef): Schema | undefined {
  const responses = (ref.operation.responses ?? {}) as Record<string, unknown>;
  const code = Object.keys(responses).find((c) => /^2\d\d$/.test(c));
  if (!code) return undefined;
  const response = resolveRef<{ content?: Record<string, { schema?: unknown }> }>(document, responses[code] as never);
  const schema = Object.values(response?.content ?? {})[0]?.schema;
  return schema ? resolveRef<Schema>(document, schema as never) : undefined;
}

/** The pointer to the parameter's value in the first entry of `list`'s answer, per the rule above. */
function ruleSource(document: OpenApiDocument, list: OperationRef, parameter: string) {
  const schema = successSchema(document, list);
  if (schema?.type !== 'array') return undefined;
  const entry = resolveRef<Schema>(document, schema.items as never) ?? {};
  const entryProperties = Object.entries((entry.properties ?? {}) as Record<string, Schema>);
  const [wrapperName, wrapperSchema] = entryProperties.length === 1 ? (entryProperties[0] ?? []) : [];
  const wrapped = wrapperName ? resolveRef<Schema>(document, wrapperSchema as never) : undefined;
  const record = wrapped?.type === 'object' || wrapped?.properties ? wrapped : entry;
  const fields = Object.keys((record.properties ?? {}) as object);
  const field = [parameter, parameter.split('_').at(-1) ?? parameter, 'id'].find((name) => fields.includes(name));
  if (!field) return undefined;
  const prefix = record === entry ? '/0' : `/0/${wrapperName}`;
  const lastSegment =
    list.path
      .replace(/\.json$/, '')
      .split('/')
      .at(-1) ?? '';
  const resource = record === entry ? lastSegment.replace(/ies$/, 'y').replace(/s$/, '') : (wrapperName as string);
  return { pointer: `${prefix}/${field}`, resource: humanize(resource) };
}

/** Path templates compared without parameter names: `/products/{id}/fields` and `/products/{product_id}/fields`. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}').replace(/\.json$/, '');

/** For every operation with path parameters, each parameter's source (undefined: none found). */
export function pathInputSources(document: OpenApiDocument): Map<string, Record<string, InputSource | undefined>> {
  const operations = listOperations(document);
  const linked = new Map<string, Record<string, InputSource>>();
  for (const ref of operations) {
    for (const response of Object.values((ref.operation.responses ?? {}) as Record<string, unknown>)) {
      const links = resolveRef<{ links?: Record<string, unknown> }>(document, response as never)?.links ?? {};
      for (const [name, raw] of Object.entries(links)) {
        const link = resolveRef<{
          operationId?: string;
          parameters?: Record<string, string>;
          'x-contract-guess'?: unknown;
        }>(document, raw as never);
        if (!link.operationId) continue;
        const target = linked.get(link.operationId) ?? {};
        for (const [parameter, expression] of Object.entries(link.parameters ?? {})) {
          const pointer = /^\$response\.body#(\/.*)$/.exec(expression)?.[1];
          if (!pointer) continue;
          target[parameter] = {
            kind: 'response',
            from: ref.operation.operationId as string,
            pointer,
            resource: humanize(name),
            carry: {},
            declared: link['x-contract-guess'] ? 'guess' : 'link',
          };
        }
        linked.set(link.operationId, target);
      }
    }
  }
  const lists = new Map(operations.filter((ref) => ref.method === 'get').map((ref) => [shape(ref.path), ref] as const));
  const result = new Map<string, Record<string, InputSource | undefined>>();
  for (const ref of operations) {
    const id = ref.operation.operationId as string;
    const parameters = pathParameters(document, ref);
    if (parameters.length === 0) continue;
    const sources: Record<string, InputSource | undefined> = {};
    const segments = ref.path.split('/');
    for (const parameter of parameters) {
      const declared = linked.get(id)?.[parameter.name];
      const env = parameter['x-contract-source'] as { env: string; resource: string } | undefined;
      const values = (parameter.schema as Schema | undefined)?.enum as unknown[] | undefined;
      if (declared) sources[parameter.name] = declared;
      else if (env) sources[parameter.name] = { kind: 'env', env: env.env, resource: env.resource };
      else if (Array.isArray(values) && values.length > 0)
        sources[parameter.name] = { kind: 'enum', value: String(values[0]) };
      else {
        const index = segments.findIndex((segment) => segment.includes(`{${parameter.name}}`));
        const prefix = segments.slice(0, index).join('/');
        const list = lists.get(shape(prefix));
        const found = list && ruleSource(document, list, parameter.name);
        if (list && found) {
          const listParameters = pathParameters(document, list).map((p) => p.name);
          const targetBefore = (prefix.match(/\{([^}]+)\}/g) ?? []).map((m) => m.slice(1, -1));
          sources[parameter.name] = {
            kind: 'response',
            from: list.operation.operationId as string,
            ...found,
            carry: Object.fromEntries(listParameters.map((name, i) => [name, targetBefore[i] ?? name])),
            declared: 'rule',
          };
        } else sources[parameter.name] = undefined;
      }
    }
    const cursor = ref.operation['x-contract-cursor'] as { parameter?: string; source?: string } | undefined;
    const cursorSource = cursor?.parameter ? sources[cursor.parameter] : undefined;
    if (cursorSource?.kind === 'response') {
      sources[cursor?.parameter as string] = { ...cursorSource, cursor: cursor?.source ?? 'x-contract-cursor' };
    }
    result.set(id, sources);
  }
  return result;
}
