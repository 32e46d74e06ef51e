/**
 * The contract suite's view of a service: its manifest's operations (`@agent-apis/codegen/manifest`, read from
 * the final spec by codegen, with every `x-` fact), plus the final document for schema checks and sampling.
 */
import { type ManifestOperation, type ManifestParameter, readManifest } from '@agent-apis/codegen/manifest';
import type { OpenApiDocument } from '@agent-apis/specs/openapi';
import type { ServiceName } from '@agent-apis/specs/services';
import { finalSpecFile, readFinalSpec } from '@agent-apis/test-utils/final-specs';

export type { InputSource, SpecSchema } from '@agent-apis/codegen/manifest';

export type ContractParameter = ManifestParameter;

/** A manifest row, with what the suite asks of it most. */
export interface ContractOperation extends ManifestOperation {
  /** Whether the operation requires credentials (a security requirement that is not the empty one). */
  readonly secured: boolean;
  /** The first published example of the request body, if any (the manifest's `body.example`). */
  readonly bodyExample?: { value: unknown };
}

export interface ContractSpec {
  service: ServiceName;
  file: string;
  document: OpenApiDocument;
  operations: ContractOperation[];
}

export async function loadContractSpec(service: ServiceName): Promise<ContractSpec> {
  const operations = readManifest(service).operations.map(
    (operation): ContractOperation => ({
      ...operation,
      secured: operation.security.length > 0 && operation.security.every((entry) => entry.length > 0),
      ...(operation.body?.example ? { bodyExample: operation.body.example } : {}),
    }),
  );
  const document = await readFinalSpec<OpenApiDocument>(service);
  return { service, file: finalSpecFile(service), document, operations };
}

/** The value at a JSON pointer (`/0/product/id`), or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  let node = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
