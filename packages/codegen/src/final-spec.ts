import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { listOperations, type OpenApiDocument } from '@agent-apis/specs/openapi';
import { REPO_ROOT, type ServiceName, specPaths } from '@agent-apis/specs/services';

/** A final, generator-ready document written by `pnpm specs:sync`. */
export interface FinalSpec {
  service: ServiceName;
  /** Absolute path of the document. */
  file: string;
  /** The same path relative to the repository root, with `/` separators (as printed in banners). */
  displayPath: string;
  /** sha256 of the source the document was built from (`info['x-agent-apis-source'].sha256`). */
  sourceSha256: string;
  /** The document's text exactly as read, which `document` was parsed from. */
  text: string;
  document: OpenApiDocument;
}

/** The final document is missing or is not one that `specs:sync` wrote. */
export class FinalSpecError extends Error {
  override name = 'FinalSpecError';
}

/**
 * Where the final document of `service` lives: `specs/dist/<service>.openapi.json`, or, when
 * AGENT_APIS_SPECS_DIST names another folder, `<that folder>/<service>.openapi.json`.
 */
export function finalSpecFile(service: ServiceName, env: Record<string, string | undefined> = process.env): string {
  const dist = env.AGENT_APIS_SPECS_DIST;
  return dist ? join(dist, `${service}.openapi.json`) : specPaths(service).final;
}

export async function readFinalSpec(service: ServiceName, file: string = finalSpecFile(service)): Promise<FinalSpec> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new FinalSpecError(
      `${service}: the final spec ${file} does not exist. Run \`pnpm specs:sync\` first (offline: SPECS_MIRROR=../shared/specs-mirror pnpm specs:sync).`,
    );
  }
  const document = JSON.parse(text) as OpenApiDocument;
  const source = document.info?.['x-agent-apis-source'] as { sha256?: unknown } | undefined;
  if (typeof source?.sha256 !== 'string') {
    throw new FinalSpecError(
      `${service}: ${file} has no info['x-agent-apis-source'].sha256; only documents written by \`pnpm specs:sync\` can be generated from.`,
    );
  }
  return {
    service,
    file,
    displayPath: relative(REPO_ROOT, file).split(sep).join('/'),
    sourceSha256: source.sha256,
    text,
    document,
  };
}

/** operationIds of the service's final spec, sorted: what the generated operation table must list. */
export async function finalSpecOperationIds(service: ServiceName): Promise<string[]> {
  const { document } = await readFinalSpec(service);
  return listOperations(document)
    .map(({ operation }) => operation.operationId ?? '')
    .sort();
}
