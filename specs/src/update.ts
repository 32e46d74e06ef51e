import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readLock, type SpecLock, writeLock } from './lock.ts';
import { listOperations, type OpenApiDocument } from './openapi.ts';
import { applyOverlay, readOverlay } from './overlay.ts';
import { checkFinalDocument, type PipelineOptions } from './pipeline.ts';
import { type ServiceName, specPaths } from './services.ts';
import { readUpstream } from './source.ts';

export interface ChangeSummary {
  operationsAdded: string[];
  operationsRemoved: string[];
  schemasAdded: string[];
  schemasRemoved: string[];
  schemasChanged: string[];
  operationsChanged: string[];
}

function operationKeys(document: OpenApiDocument): Map<string, string> {
  return new Map(
    listOperations(document).map((ref) => [`${ref.method.toUpperCase()} ${ref.path}`, JSON.stringify(ref.operation)]),
  );
}

function schemas(document: OpenApiDocument): Map<string, string> {
  const all = (document.components?.schemas ?? {}) as Record<string, unknown>;
  return new Map(Object.entries(all).map(([name, schema]) => [name, JSON.stringify(schema)]));
}

function compare(before: Map<string, string>, after: Map<string, string>) {
  return {
    added: [...after.keys()].filter((key) => !before.has(key)),
    removed: [...before.keys()].filter((key) => !after.has(key)),
    changed: [...after.keys()].filter((key) => before.has(key) && before.get(key) !== after.get(key)),
  };
}

/** What changed between two versions of an upstream document, by operation and by schema. */
export function summarizeChanges(before: OpenApiDocument, after: OpenApiDocument): ChangeSummary {
  const operations = compare(operationKeys(before), operationKeys(after));
  const models = compare(schemas(before), schemas(after));
  return {
    operationsAdded: operations.added,
    operationsRemoved: operations.removed,
    operationsChanged: operations.changed,
    schemasAdded: models.added,
    schemasRemoved: models.removed,
    schemasChanged: models.changed,
  };
}

export interface UpdateResult {
  service: ServiceName;
  previous: SpecLock;
  next: SpecLock;
  changed: boolean;
  /** undefined when the previous bytes are not in the local cache. */
  summary?: ChangeSummary;
  /** Why the overlay no longer produces a valid final document, if it does not. */
  overlayProblem?: string;
}

/** Fetches the current upstream document, pins it in the lock, and says what changed. */
export async function updateSpec(
  service: ServiceName,
  options: PipelineOptions & { now?: Date } = {},
): Promise<UpdateResult> {
  const paths = specPaths(service, options.root);
  const previous = await readLock(paths.lock);
  const current = await readUpstream(previous, { ...options, latest: true });
  const after = JSON.parse(new TextDecoder().decode(current.bytes)) as OpenApiDocument;
  const next: SpecLock = {
    ...previous,
    // The newest bytes are now the pinned ones; an immutable source address no longer names them.
    ...(previous.track ? { source: previous.track } : {}),
    sha256: current.sha256,
    openapi: after.openapi,
    fetchedAt: (options.now ?? new Date()).toISOString(),
    operations: listOperations(after).length,
  };
  if (current.sha256 === previous.sha256) return { service, previous, next: previous, changed: false };

  let summary: ChangeSummary | undefined;
  try {
    const cached = await readFile(join(paths.cacheDir, `${previous.sha256}.json`), 'utf8');
    summary = summarizeChanges(JSON.parse(cached) as OpenApiDocument, after);
  } catch {
    summary = undefined;
  }

  let overlayProblem: string | undefined;
  try {
    const overlay = await readOverlay(paths.overlay);
    checkFinalDocument(service, applyOverlay(after, overlay));
  } catch (error) {
    overlayProblem = (error as Error).message;
  }

  await writeLock(paths.lock, next);
  return {
    service,
    previous,
    next,
    changed: true,
    ...(summary ? { summary } : {}),
    ...(overlayProblem ? { overlayProblem } : {}),
  };
}
