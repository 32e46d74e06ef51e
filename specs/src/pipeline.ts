import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readLock, type SpecLock } from './lock.ts';
import { listOperations, type OpenApiDocument } from './openapi.ts';
import { applyOverlay, readOverlay } from './overlay.ts';
import { findPathConflicts, type PathConflict } from './paths.ts';
import { SERVICE_KINDS, type ServiceName, specPaths } from './services.ts';
import { readPinned, type SourceOptions, sha256 } from './source.ts';

export interface PipelineOptions extends SourceOptions {
  /** The `specs/` folder to read locks, overlays and documents from, and to write `dist/` into. */
  root?: string;
}

export interface BuiltSpec {
  service: ServiceName;
  /** Fetched: the pinned upstream sha256. Hand-written: sha256 of the committed document. */
  sourceSha256: string;
  /** sha256 of the final document as written to `dist/`. */
  finalSha256: string;
  openapi: string;
  operations: number;
  document: OpenApiDocument;
  lock?: SpecLock;
}

/** The final document is not fit for codegen and mocks. */
export class SpecCheckError extends Error {
  override name = 'SpecCheckError';
}

function describeConflicts(service: string, conflicts: PathConflict[]): string {
  const lines = conflicts.map((c) => `  - ${c.kind}: ${c.paths.join('  <->  ')} (${c.detail})`);
  return `${service}: ${conflicts.length} path template problem(s) remain after the overlay:\n${lines.join('\n')}`;
}

/** Every operation has an operationId, and no two share one. */
export function operationIdProblems(document: OpenApiDocument): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const { method, path, operation } of listOperations(document)) {
    const where = `${method.toUpperCase()} ${path}`;
    const id = operation.operationId;
    if (!id) problems.push(`${where} has no operationId`);
    else if (seen.has(id)) problems.push(`${where} reuses operationId "${id}" of ${seen.get(id)}`);
    else seen.set(id, where);
  }
  return problems;
}

/** Checks a final document: no path template problems, unique operationIds on every operation. */
export function checkFinalDocument(service: string, document: OpenApiDocument): void {
  const conflicts = findPathConflicts(document);
  if (conflicts.length > 0) throw new SpecCheckError(describeConflicts(service, conflicts));
  const idProblems = operationIdProblems(document);
  if (idProblems.length > 0) {
    throw new SpecCheckError(`${service}: operationId problems:\n${idProblems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Builds the final, generator-ready document of one service (does not write it). */
export async function buildSpec(service: ServiceName, options: PipelineOptions = {}): Promise<BuiltSpec> {
  const paths = specPaths(service, options.root);
  let document: OpenApiDocument;
  let sourceSha256: string;
  let lock: SpecLock | undefined;

  if (SERVICE_KINDS[service] === 'fetched') {
    lock = await readLock(paths.lock);
    const pinned = await readPinned(lock, options);
    sourceSha256 = pinned.sha256;
    const upstream = JSON.parse(new TextDecoder().decode(pinned.bytes)) as OpenApiDocument;
    await cacheUpstream(paths.cacheDir, pinned.sha256, pinned.bytes);
    const overlay = await readOverlay(paths.overlay);
    document = applyOverlay(upstream, overlay);
    if (existsSync(paths.contractOverlay)) document = applyOverlay(document, await readOverlay(paths.contractOverlay));
    document.info['x-agent-apis-source'] = { url: lock.source, sha256: lock.sha256 };
  } else {
    const text = await readFile(paths.document, 'utf8');
    sourceSha256 = sha256(text);
    document = parseYaml(text) as OpenApiDocument;
    document.info['x-agent-apis-source'] = { file: `specs/${service}/openapi.yaml`, sha256: sourceSha256 };
  }

  checkFinalDocument(service, document);
  const finalText = `${JSON.stringify(document, null, 2)}\n`;
  return {
    service,
    sourceSha256,
    finalSha256: sha256(finalText),
    openapi: document.openapi,
    operations: listOperations(document).length,
    document,
    ...(lock ? { lock } : {}),
  };
}

export async function writeFinal(built: BuiltSpec, options: PipelineOptions = {}): Promise<string> {
  const file = specPaths(built.service, options.root).final;
  await replaceFile(file, `${JSON.stringify(built.document, null, 2)}\n`);
  return file;
}

/** Keeps verified upstream bytes locally so `specs:update` can say what changed. */
async function cacheUpstream(dir: string, hash: string, bytes: Uint8Array): Promise<void> {
  await replaceFile(join(dir, `${hash}.json`), bytes);
}

/**
 * Writes `file` in one step: the bytes go to a temporary file beside it, which is then renamed over it. Codegen,
 * tests and other syncs read these files while a sync runs; with a plain writeFile they could catch the file
 * truncated or half written.
 */
export async function replaceFile(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${randomUUID()}.partial`;
  try {
    await writeFile(partial, data);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
