/**
 * The one reader of a final spec: every fact of every operation, as core's `ManifestOperation`. Every `x-` key of
 * an operation is read here and nowhere else; a missing fact throws, naming the operation.
 */
import type { QueryConstraint } from '@agent-apis/core';
import type {
  ErrorBodyShape,
  Manifest,
  ManifestOperation,
  ManifestParameter,
  SafetyClass,
  SpecSchema,
} from '@agent-apis/core/service';
import {
  effectiveParameters,
  listOperations,
  type OpenApiDocument,
  type OperationRef,
  resolveRef,
  type Schema,
} from '@agent-apis/specs/openapi';
import { templateVariables } from '@agent-apis/specs/paths';
import type { FinalSpec } from '../final-spec.ts';
import { describeResourceMethod, firstSegmentsOf } from '../resources.ts';
import { inlineSchema, shortText } from '../tools.ts';
import { pathInputSources } from './sources.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Content {
  schema?: SpecSchema;
  example?: unknown;
  examples?: Record<string, unknown>;
}

interface RequestBody {
  required?: boolean;
  content?: Record<string, Content>;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/;

/** How deep the required-field walk goes into a body (`product.variants` is two levels). */
const MAX_BODY_DEPTH = 3;

/**
 * The required properties of a JSON body schema as dotted paths, following nested objects (not arrays) down to
 * {@link MAX_BODY_DEPTH} levels. Composed schemas (`allOf`/`oneOf`/`anyOf`) are left to the server.
 */
function requiredFields(document: OpenApiDocument, rawSchema: unknown, prefix = '', depth = 0): string[] {
  const schema = rawSchema ? resolveRef<Schema>(document, rawSchema as Schema) : undefined;
  if (!schema || depth >= MAX_BODY_DEPTH) return [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const fields = required.filter((name) => name in properties).map((name) => `${prefix}${name}`);
  for (const [name, property] of Object.entries(properties)) {
    fields.push(...requiredFields(document, property, `${prefix}${name}.`, depth + 1));
  }
  return fields;
}

const PARAMETER_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** The parameter's JSON type: the first non-null entry of `type`, else what its `enum` values are. */
function parameterType(schema: Schema | undefined): QueryConstraint['type'] {
  const declared = Array.isArray(schema?.type) ? schema.type : schema?.type ? [schema.type] : [];
  const type = declared.find((entry) => entry !== 'null');
  if (type) return PARAMETER_TYPES.has(type) ? (type as QueryConstraint['type']) : 'unknown';
  const kinds = new Set((schema?.enum ?? []).filter((value) => value !== null).map((value) => typeof value));
  const only = kinds.size === 1 ? [...kinds][0] : undefined;
  return only === 'string' || only === 'number' || only === 'boolean' ? only : 'unknown';
}

/** The check of one path or query parameter, as the runtime row ships it (`required` only when true). */
function constraintOf(document: OpenApiDocument, rawSchema: Schema | undefined, required: boolean): QueryConstraint {
  const schema = rawSchema && resolveRef<Schema>(document, rawSchema);
  const type = parameterType(schema);
  const constraint: Mutable<QueryConstraint> = required ? { required, type } : { type };
  if (Array.isArray(schema?.enum)) constraint.enum = schema.enum;
  if (typeof schema?.minimum === 'number') constraint.minimum = schema.minimum;
  if (typeof schema?.maximum === 'number') constraint.maximum = schema.maximum;
  if (schema && 'default' in schema) constraint.default = schema.default;
  return constraint;
}

/** The JSON media type of a body or response (else its first one, as the contract suite has always read it). */
function contentOf(content: Record<string, Content> | undefined): Content | undefined {
  const entries = Object.entries(content ?? {});
  return (entries.find(([type]) => type.includes('json')) ?? entries[0])?.[1];
}

/** The first example a media type publishes (`example`, else the first of `examples`), resolved. */
function publishedExample(document: OpenApiDocument, content: Content | undefined): { value: unknown } | undefined {
  if (content?.example !== undefined) return { value: content.example };
  const first = Object.values(content?.examples ?? {})[0];
  if (first === undefined) return undefined;
  const example = resolveRef<{ value?: unknown }>(document, first as never);
  return example.value === undefined ? undefined : { value: example.value };
}

function responseAt(document: OpenApiDocument, ref: OperationRef, status: number) {
  const raw = ((ref.operation.responses ?? {}) as Record<string, unknown>)[String(status)];
  return raw ? resolveRef<{ content?: Record<string, Content> }>(document, raw as never) : undefined;
}

function safetyOf(operation: Record<string, unknown>, where: string): SafetyClass {
  const safety = operation['x-safety'];
  if (safety !== 'read' && safety !== 'write' && safety !== 'dangerous') {
    throw new Error(`${where} has no x-safety class (read, write or dangerous) in its contract overlay`);
  }
  if (operation['x-spends-quota'] === true && safety !== 'read') {
    throw new Error(`${where}: x-spends-quota is only meaningful on a read`);
  }
  return safety;
}

/** The tool arguments: path and query parameters plus `body`, as one self-contained object schema. */
function inputSchemaOf(document: OpenApiDocument, ref: OperationRef, where: string): SpecSchema {
  const properties: Record<string, SpecSchema> = {};
  const required: string[] = [];
  for (const parameter of effectiveParameters(document, ref)) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const schema = inlineSchema(document, parameter.schema);
    const description = shortText(parameter.description);
    if (description && !schema.description) schema.description = description;
    properties[parameter.name] = schema;
    if (parameter.in === 'path' || parameter.required === true) required.push(parameter.name);
  }
  for (const name of templateVariables(ref.path)) {
    if (!(name in properties)) throw new Error(`${where}: path parameter ${name} undeclared`);
  }
  const body = ref.operation.requestBody
    ? resolveRef<RequestBody>(document, ref.operation.requestBody as RequestBody)
    : undefined;
  const media = Object.entries(body?.content ?? {}).find(([type]) => JSON_TYPE.test(type));
  if (media) {
    if ('body' in properties) throw new Error(`${where}: a parameter is named \`body\``);
    properties.body = { ...inlineSchema(document, media[1].schema), description: 'The JSON request body.' };
    if (body?.required === true) required.push('body');
  }
  const schema: SpecSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  return schema;
}

/** `/products/{id}.json` → `~1products~1{id}.json` (a JSON pointer token). */
const pointerToken = (text: string) => text.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Where the service's error answers carry their message: the first string property named `message` (else
 * `error`) of the first documented error body, searched two levels deep. `undefined` when no error body is documented.
 */
export function errorBodyShape(document: OpenApiDocument): ErrorBodyShape | undefined {
  for (const ref of listOperations(document)) {
    for (const status of Object.keys(ref.operation.responses ?? {}).filter((code) => /^[45]\d\d$/.test(code))) {
      const schema = contentOf(responseAt(document, ref, Number(status))?.content)?.schema;
      const found = schema && messageIn(document, schema, '', 0);
      if (found) return found;
    }
  }
  return undefined;
}

function messageIn(
  document: OpenApiDocument,
  raw: SpecSchema,
  prefix: string,
  depth: number,
): ErrorBodyShape | undefined {
  const schema = resolveRef<Schema>(document, raw as Schema);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const isString = (name: string) =>
    properties[name] && resolveRef<Schema>(document, properties[name]).type === 'string';
  const code = isString('code') ? { code: `${prefix}/code` } : {};
  if (isString('message')) return { message: `${prefix}/message`, ...code };
  if (isString('error')) return { message: `${prefix}/error`, ...code };
  if (depth >= 1) return undefined;
  for (const [name, property] of Object.entries(properties)) {
    const inner = messageIn(document, property as SpecSchema, `${prefix}/${pointerToken(name)}`, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

/** Every operation of the final spec as a manifest row, in document order. Throws on a missing fact. */
export function describeManifest(
  spec: Pick<FinalSpec, 'service' | 'document' | 'displayPath' | 'sourceSha256'>,
): Manifest {
  const { document } = spec;
  const refs = listOperations(document);
  const firstSegments = firstSegmentsOf(refs);
  const sources = pathInputSources(document);
  const operations = refs.map((ref): ManifestOperation => {
    const method = ref.method.toUpperCase() as ManifestOperation['method'];
    const where = `${method} ${ref.path}`;
    const id = ref.operation.operationId;
    if (!id) throw new Error(`${where} has no operationId`);
    const named = `${where} (${id})`;
    const operation = ref.operation as Record<string, unknown>;
    const statuses = Object.keys(ref.operation.responses ?? {})
      .filter((code) => /^\d{3}$/.test(code))
      .map(Number)
      .sort((a, b) => a - b);
    const successStatus = statuses.find((status) => status >= 200 && status < 300);
    if (successStatus === undefined) throw new Error(`${named} declares no 2xx response`);

    const parameters: ManifestParameter[] = [];
    const query: Record<string, QueryConstraint> = {};
    const pathTypes: Record<string, QueryConstraint> = {};
    for (const parameter of effectiveParameters(document, ref)) {
      const required = parameter.in === 'path' || parameter.required === true;
      const description = typeof parameter.description === 'string' ? { description: parameter.description } : {};
      parameters.push({
        name: parameter.name,
        in: parameter.in,
        required,
        schema: parameter.schema ?? {},
        ...description,
      });
      if (parameter.in === 'query') {
        const constraint: Mutable<QueryConstraint> = constraintOf(document, parameter.schema, required);
        if (parameter.explode === false) constraint.explode = false;
        query[parameter.name] = constraint;
      } else if (parameter.in === 'path') pathTypes[parameter.name] = constraintOf(document, parameter.schema, false);
    }
    const pathParams = templateVariables(ref.path);
    const requestBody = ref.operation.requestBody
      ? resolveRef<RequestBody>(document, ref.operation.requestBody as RequestBody)
      : undefined;
    const bodyContent = contentOf(requestBody?.content);
    const jsonBody = Object.entries(requestBody?.content ?? {}).find(([type]) => JSON_TYPE.test(type))?.[1];
    const requiredBodyFields = method === 'POST' ? requiredFields(document, jsonBody?.schema) : [];
    const success = responseAt(document, ref, successStatus);
    const successTypes = Object.keys(success?.content ?? {});
    const successContent = contentOf(success?.content);
    const successExample =
      successContent?.example !== undefined ||
      Object.keys(successContent?.examples ?? {}).length > 0 ||
      (successContent?.schema !== undefined &&
        resolveRef<SpecSchema>(document, successContent.schema as never).example !== undefined);
    const cursor = operation['x-contract-cursor'] as { parameter?: unknown; source?: unknown } | undefined;
    if (cursor !== undefined && typeof cursor.parameter !== 'string') {
      throw new Error(`${named}: x-contract-cursor names no parameter`);
    }
    const identity = operation['x-identity-key'];
    if (identity !== undefined && typeof identity !== 'string')
      throw new Error(`${named}: x-identity-key is not a name`);
    const docs = (operation.externalDocs as { url?: unknown } | undefined)?.url;
    const bodyExample = publishedExample(document, bodyContent);

    const row: Mutable<ManifestOperation> = { id, method, path: ref.path } as Mutable<ManifestOperation>;
    // The runtime row's fields, in the order and compact form `operations.gen.ts` ships them.
    if (pathParams.length > 0) Object.assign(row, { pathParams, pathTypes });
    if (Object.keys(query).length > 0) row.query = query;
    if (requestBody) row.hasBody = true;
    if (requestBody?.required === true) row.bodyRequired = true;
    if (requiredBodyFields.length > 0) row.requiredBodyFields = requiredBodyFields;
    if (!(successTypes.length > 0 && successTypes.every((type) => JSON_TYPE.test(type)))) row.successJson = false;
    return Object.assign(row, {
      summary: shortText(ref.operation.summary) ?? shortText(operation.description) ?? where,
      safety: safetyOf(operation, named),
      spendsQuota: operation['x-spends-quota'] === true,
      provisional: operation['x-provisional'] === true,
      parameters,
      inputSchema: inputSchemaOf(document, ref, named),
      ...(bodyContent?.schema
        ? {
            body: {
              required: requestBody?.required === true,
              schema: bodyContent.schema,
              ...(bodyExample ? { example: bodyExample } : {}),
            },
          }
        : {}),
      successStatus,
      ...(successContent?.schema ? { successSchema: successContent.schema } : {}),
      successHasExample: successExample,
      errorStatuses: statuses.filter((status) => status >= 400),
      security: ((ref.operation.security ?? document.security ?? []) as Record<string, unknown>[]).map((entry) =>
        Object.keys(entry).sort(),
      ),
      sources: sources.get(id) ?? {},
      ...(cursor
        ? { cursor: { parameter: cursor.parameter as string, source: String(cursor.source ?? 'x-contract-cursor') } }
        : {}),
      ...(identity ? { identityKey: identity } : {}),
      resourceMethod: describeResourceMethod(document, ref, firstSegments),
      source: typeof docs === 'string' ? docs : `${spec.displayPath}#/paths/${pointerToken(ref.path)}/${ref.method}`,
    });
  });
  const errorBody = errorBodyShape(document);
  return {
    service: spec.service,
    spec: { file: spec.displayPath, sourceSha256: spec.sourceSha256 },
    ...(errorBody ? { errorBody } : {}),
    operations,
  };
}
