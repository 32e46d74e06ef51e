/**
 * The contract suite's view of a final spec: every operation with what it takes and what it answers, read from
 * `specs/dist/<service>.openapi.json` — never from a hand-kept list.
 */
import { listOperations, type OpenApiDocument, type Parameter, resolveRef } from '@agent-apis/specs/openapi';
import type { ServiceName } from '@agent-apis/specs/services';
import { finalSpecFile, readFinalSpec } from '@agent-apis/test-utils/final-specs';
import { type InputSource, pathInputSources } from './sources.ts';

export type JsonSchema = Record<string, unknown>;

export interface ContractParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface ContractOperation {
  id: string;
  method: string;
  path: string;
  parameters: ContractParameter[];
  body?: { required: boolean; schema: JsonSchema };
  successStatus: number;
  /** Schema of the success response's JSON body, if it has one. */
  successSchema?: JsonSchema;
  /** Whether the success response has an example (else the suite asks Prism for a seeded dynamic one). */
  successHasExample: boolean;
  /** Documented 4xx/5xx statuses. */
  errorStatuses: number[];
  /** The operation's safety class (`x-safety` of the contract overlays): read, write or dangerous. */
  safety: 'read' | 'write' | 'dangerous';
  /** Whether the operation requires credentials (a security requirement that is not the empty one). */
  secured: boolean;
  /** `x-provisional: true`: the spec's description of the operation is itself a guess (bodies not published). */
  provisional: boolean;
  /** The first published example of the request body (`example`/`examples` of its JSON content), if any. */
  bodyExample?: { value: unknown };
  /** Where each path parameter's live value comes from (links, the list rule, env, enum; see `sources.ts`). */
  sources: Record<string, InputSource | undefined>;
}

export interface ContractSpec {
  service: ServiceName;
  file: string;
  document: OpenApiDocument;
  operations: ContractOperation[];
}

function jsonContent(content: unknown): { schema?: JsonSchema; example?: unknown; examples?: unknown } | undefined {
  if (!content || typeof content !== 'object') return undefined;
  const entries = Object.entries(content as Record<string, unknown>);
  const json = entries.find(([type]) => type.includes('json')) ?? entries[0];
  return json?.[1] as { schema?: JsonSchema } | undefined;
}

/** The first example a media type publishes (`example`, else the first of `examples`), resolved. */
function publishedExample(
  document: OpenApiDocument,
  content: { example?: unknown; examples?: unknown } | undefined,
): { value: unknown } | undefined {
  if (content?.example !== undefined) return { value: content.example };
  const first = Object.values((content?.examples ?? {}) as Record<string, unknown>)[0];
  if (first === undefined) return undefined;
  const example = resolveRef<{ value?: unknown }>(document, first as never);
  return example.value === undefined ? undefined : { value: example.value };
}

function isSecured(requirements: Record<string, unknown>[]): boolean {
  return requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0);
}

export async function loadContractSpec(service: ServiceName): Promise<ContractSpec> {
  const file = finalSpecFile(service);
  const document = await readFinalSpec<OpenApiDocument>(service);
  const sources = pathInputSources(document);
  const operations = listOperations(document).map((ref): ContractOperation => {
    const byKey = new Map<string, Parameter>();
    for (const raw of [...(ref.pathItem.parameters ?? []), ...(ref.operation.parameters ?? [])]) {
      const parameter = resolveRef<Parameter>(document, raw);
      byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
    const responses = (ref.operation.responses ?? {}) as Record<string, unknown>;
    const statuses = Object.keys(responses)
      .filter((code) => /^\d{3}$/.test(code))
      .map(Number)
      .sort((a, b) => a - b);
    const successStatus = statuses.find((status) => status >= 200 && status < 300) ?? 200;
    const success = resolveRef<Record<string, unknown>>(document, responses[String(successStatus)] as never) ?? {};
    const content = jsonContent(success.content);
    const requestBody = ref.operation.requestBody
      ? resolveRef<{ required?: boolean; content?: unknown }>(document, ref.operation.requestBody as never)
      : undefined;
    const bodyContent = requestBody ? jsonContent(requestBody.content) : undefined;
    const bodySchema = bodyContent?.schema;
    const bodyExample = publishedExample(document, bodyContent);
    const contentExample =
      content?.example !== undefined || (content?.examples && Object.keys(content.examples).length > 0);
    const schemaExample =
      content?.schema && resolveRef<JsonSchema>(document, content.schema as never).example !== undefined;
    return {
      id: ref.operation.operationId as string,
      method: ref.method.toUpperCase(),
      path: ref.path,
      parameters: [...byKey.values()].map((parameter) => ({
        name: parameter.name,
        in: parameter.in,
        required: parameter.in === 'path' || parameter.required === true,
        schema: (parameter.schema ?? {}) as JsonSchema,
      })),
      ...(bodySchema ? { body: { required: requestBody?.required === true, schema: bodySchema } } : {}),
      successStatus,
      ...(content?.schema ? { successSchema: content.schema } : {}),
      successHasExample: Boolean(contentExample || schemaExample),
      errorStatuses: statuses.filter((status) => status >= 400),
      safety: (ref.operation['x-safety'] as ContractOperation['safety'] | undefined) ?? 'write',
      secured: isSecured((ref.operation.security ?? document.security ?? []) as Record<string, unknown>[]),
      provisional: ref.operation['x-provisional'] === true,
      ...(bodyExample ? { bodyExample } : {}),
      sources: sources.get(ref.operation.operationId as string) ?? {},
    };
  });
  return { service, file, document, operations };
}
