/**
 * Drift detection (`pnpm specs:diff`): compares each fetched service's pinned upstream document with the one
 * upstream serves now, and classifies every change as breaking, an addition, or other (documentation). This file
 * reads the two documents and runs the pieces: the classification (`drift-classify.ts`), the changesets
 * (`drift-changeset.ts`) and the report (`drift-report.ts`).
 *
 * The classifier is optic 1.0.9 (the `@useoptic/*` libraries the `optic diff --check` CLI is made of, with its
 * standard `breaking-changes` ruleset). It reads OpenAPI 3.0 and 3.1 alike, which we need: store is 3.0.3,
 * directory 3.1.0, and openapi-diff 0.24.1 refuses 3.1. We call the libraries, not the CLI, because
 * - `optic diff --json` lists the changes but leaves the rule results (what is breaking) out, so the CLI's
 *   verdict would have to be scraped from its human-readable output;
 * - the ruleset builds facts for every operation of both documents (about 11 s for the store document); in
 *   process we first drop the operations that are identical on both sides, which takes a diff to about 1 s;
 * - the CLI package carries the telemetry (Segment, Sentry) and a proxy server; these libraries do not.
 * No ajv override is needed: the crash the brief saw came from npm hoisting one ajv copy under another's plugins;
 * with pnpm each package gets the ajv it asks for (checked: these tests, and `optic diff --check` on both
 * final documents in a scratch pnpm install), and Prism's ajv stays as it was.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeChangeset } from './drift-changeset.ts';
import { bumpFor, classifyChanges, overlaidPair, parseDocument, type ServiceDrift } from './drift-classify.ts';
import { type DriftFailure, type DriftReport, isFailure, writeDriftReport } from './drift-report.ts';
import { readLock } from './lock.ts';
import { readOverlay } from './overlay.ts';
import { DEFAULT_SPECS_ROOT, type ServiceName, specPaths } from './services.ts';
import { readUpstream, type SourceOptions, SpecSourceError, sha256 } from './source.ts';

export type { Bump, ChangeKind, ComparisonBasis, ServiceDrift, SpecChange } from './drift-classify.ts';

export interface DiffOptions extends SourceOptions {
  /** The `specs/` folder (locks, overlays, `.cache/`). */
  root?: string;
}

export function packageNameOf(service: ServiceName): string {
  return `@agent-apis/${service}`;
}

/** The pinned bytes, from the cache `specs:sync` fills, checked against the lock once more. */
async function readCachedPinned(service: ServiceName, pinnedSha256: string, currentSha256: string, cacheDir: string) {
  const file = join(cacheDir, `${pinnedSha256}.json`);
  const bytes = await readFile(file).catch(() => undefined);
  if (bytes && sha256(bytes) === pinnedSha256) return bytes;
  throw new SpecSourceError(
    [
      `${service}: upstream changed (now sha256 ${currentSha256}), but the pinned document is not available to`,
      `compare it with: ${file} is ${bytes ? 'not the pinned bytes' : 'missing'}, and the source no longer serves them.`,
      'Run pnpm specs:sync while the source still serves the pinned bytes (in CI: restore specs/.cache), then diff again.',
    ].join('\n'),
  );
}

/** Reads the pinned and the current upstream document of a fetched service and classifies what changed. */
export async function diffService(service: ServiceName, options: DiffOptions = {}): Promise<ServiceDrift> {
  const paths = specPaths(service, options.root);
  const lock = await readLock(paths.lock);
  const current = await readUpstream(lock, { ...options, latest: true });
  const drift: ServiceDrift = {
    service,
    packageName: packageNameOf(service),
    pinnedSha256: lock.sha256,
    currentSha256: current.sha256,
    currentOrigin: current.origin,
    drifted: current.sha256 !== lock.sha256,
    staleOverlayActions: [],
    changes: [],
  };
  // Same bytes: nothing to compare. (Re-reading the pinned bytes from the same source would give these again.)
  if (!drift.drifted) return drift;

  const pinnedBytes = await readCachedPinned(service, lock.sha256, current.sha256, paths.cacheDir);
  const overlay = await readOverlay(paths.overlay);
  const pair = overlaidPair(parseDocument(pinnedBytes), parseDocument(current.bytes), overlay);
  const changes = await classifyChanges(pair.before, pair.after);
  const bump = bumpFor(changes);
  return { ...drift, basis: pair.basis, staleOverlayActions: pair.stale, changes, ...(bump ? { bump } : {}) };
}

export interface DriftRunOptions extends DiffOptions {
  /** Also write a changeset per package whose upstream changed (the nightly passes `--changeset`). */
  changesets?: boolean;
  /** Where changesets go (default: the repository's `.changeset/`). */
  changesetDir?: string;
  now?: Date;
}

export interface DriftRun {
  report: DriftReport;
  /** The report files, then the changesets written. */
  reportFiles: string[];
  changesetFiles: string[];
}

/** Diffs each service, writes `<root>/reports/drift.{json,md}`, and with `changesets` one changeset per bump. */
export async function runDrift(services: ServiceName[], options: DriftRunOptions = {}): Promise<DriftRun> {
  const entries: (ServiceDrift | DriftFailure)[] = [];
  for (const service of services) {
    try {
      entries.push(await diffService(service, options));
    } catch (error) {
      entries.push({ service, error: (error as Error).message });
    }
  }
  const report: DriftReport = {
    generatedAt: (options.now ?? new Date()).toISOString(),
    source: options.mirror ? `mirror ${options.mirror}` : 'network',
    services: entries,
  };
  const root = options.root ?? DEFAULT_SPECS_ROOT;
  const reportFiles = await writeDriftReport(report, join(root, 'reports'));
  const changesetFiles: string[] = [];
  if (options.changesets) {
    for (const entry of entries) {
      const file = isFailure(entry) ? undefined : await writeChangeset(entry, options.changesetDir);
      if (file) changesetFiles.push(file);
    }
  }
  return { report, reportFiles, changesetFiles };
}
