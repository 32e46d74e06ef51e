/**
 * Tonight against last night. Each run appends what it proved to a history folder (`CONTRACT_HISTORY`, default
 * `contract-tests/reports/history`), one file per run under its target (`mock/`, `live/`), the last
 * `CONTRACT_HISTORY_NIGHTS` (default 30) kept: per service its state, per operation its verdict, the records its
 * answers carried and the fields present in every one of them. The report of a run starts with what changed since
 * the previous run of the same target: an operation verified then and not now, an operation whose answers held
 * records then and none now, a field present in every record then and missing now (a warning naming the field,
 * `product.price`; red with CONTRACT_STRICT=1).
 *
 * The folder may come from a cache or an artifact of another job: every file is size-capped, parsed defensively
 * and re-capped to the limits below, and a file that does not parse is left out with a note.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  OPERATION_VERDICTS,
  type OperationVerdict,
  type ServiceEvidence,
  type ServiceState,
} from '../evidence/evidence.ts';
import { readCapped, refuseLinkedFolder } from '../evidence/files.ts';
import { contractNumber, DEFAULTS, REPORTS_DIR } from '../settings.ts';
import type { JudgedService } from './states.ts';

export interface NightOperation {
  verdict: OperationVerdict;
  records: number;
  /** Fields present in every record this operation returned (`product.price`). */
  fields: string[];
}

/**
 * Service and operation names come from files other jobs wrote: they live in Maps, never as keys of plain objects
 * (a service named `constructor` or `__proto__` is a name like any other).
 */
export interface NightService {
  state: ServiceState;
  operations: Map<string, NightOperation>;
}

/** One run of one target as the history keeps it. */
export interface Night {
  version: 1;
  target: 'mock' | 'live';
  /** ISO time the run ended. */
  at: string;
  services: Map<string, NightService>;
}

export type ChangeKind = 'not-run-any-more' | 'no-longer-verified' | 'no-records-any-more' | 'field-gone';

/** One thing that changed since the previous night. */
export interface Change {
  kind: ChangeKind;
  service: string;
  operations: string[];
  /** `field-gone`: the dotted path of the field. */
  field?: string;
  /** `no-longer-verified`: the operation's verdict tonight (`absent` when tonight's run does not have it). */
  tonight?: OperationVerdict | 'absent';
  /** One line, for every report. */
  message: string;
}

export const DEFAULT_NIGHTS_KEPT: number = DEFAULTS.CONTRACT_HISTORY_NIGHTS;
/** Limits a history file is re-capped to when read. */
const MAX_FILE_BYTES = 8 << 20;
const MAX_SERVICES = 32;
const MAX_OPERATIONS = 1_000;
const MAX_FIELDS = 2_000;
const MAX_NAME = 300;

/** The history folder: CONTRACT_HISTORY, else `history/` in the reports folder. */
export function historyDir(env: Record<string, string | undefined> = process.env): string {
  return env.CONTRACT_HISTORY?.trim() || join(REPORTS_DIR, 'history');
}

/** How many nights are kept (CONTRACT_HISTORY_NIGHTS, 2–1000, default 30; anything else is refused). */
export function nightsKept(env: Record<string, string | undefined> = process.env): number {
  return contractNumber(env, 'CONTRACT_HISTORY_NIGHTS');
}

/** Tonight's entry, from the runner's evidence and the judged states (the evidence's `fieldsAlwaysPresent`). */
export function nightFrom(
  target: 'mock' | 'live',
  evidence: ServiceEvidence[],
  states: JudgedService[],
  at = new Date(),
): Night {
  const services = new Map<string, NightService>();
  for (const state of states) services.set(state.service, { state: state.judged, operations: new Map() });
  for (const e of evidence) {
    const operations = new Map<string, NightOperation>();
    for (const op of e.operations) {
      operations.set(op.operation, {
        verdict: op.verdict,
        records: op.records,
        fields: [...new Set(op.fieldsAlwaysPresent)].sort(),
      });
    }
    services.set(e.service, { state: services.get(e.service)?.state ?? (e.skipped ? 'skipped' : 'green'), operations });
  }
  return { version: 1, target, at: at.toISOString(), services };
}

const FILE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-\d+\.json$/;

function fileName(night: Night): string {
  return `${night.at.replace(/:/g, '-').replace('.', '-')}-${process.pid}.json`;
}

/** A night as its file holds it: the Maps as JSON objects (read back with `Object.entries`, never by key). */
function nightJson(night: Night): object {
  return {
    ...night,
    services: Object.fromEntries(
      [...night.services].map(([name, service]) => [
        name,
        { state: service.state, operations: Object.fromEntries(service.operations) },
      ]),
    ),
  };
}

/** A night read from disk, re-capped to our limits; undefined when it is not one. */
function parseNight(value: unknown, target: 'mock' | 'live'): Night | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Partial<Night>;
  if (raw.version !== 1 || raw.target !== target || typeof raw.at !== 'string') return undefined;
  if (typeof raw.services !== 'object' || raw.services === null || Array.isArray(raw.services)) return undefined;
  const states = new Set<string>(['green', 'failed', 'unverified', 'skipped']);
  const verdicts = new Set<string>(OPERATION_VERDICTS);
  const services = new Map<string, NightService>();
  for (const [name, value] of Object.entries(raw.services as object).slice(0, MAX_SERVICES)) {
    const service = value as { state?: unknown; operations?: unknown } | null;
    if (typeof service !== 'object' || service === null || !states.has(String(service.state))) continue;
    const operations = new Map<string, NightOperation>();
    const rawOperations =
      typeof service.operations === 'object' && service.operations !== null ? service.operations : {};
    for (const [op, value] of Object.entries(rawOperations).slice(0, MAX_OPERATIONS)) {
      const entry = value as { verdict?: unknown; records?: unknown; fields?: unknown } | null;
      if (typeof entry !== 'object' || entry === null || !verdicts.has(String(entry.verdict))) continue;
      operations.set(op.slice(0, MAX_NAME), {
        verdict: entry.verdict as OperationVerdict,
        records: Number.isSafeInteger(entry.records) && (entry.records as number) >= 0 ? (entry.records as number) : 0,
        fields: (Array.isArray(entry.fields) ? entry.fields : [])
          .filter((f): f is string => typeof f === 'string')
          .slice(0, MAX_FIELDS)
          .map((f) => f.slice(0, MAX_NAME)),
      });
    }
    services.set(name.slice(0, MAX_NAME), { state: service.state as ServiceState, operations });
  }
  return { version: 1, target, at: raw.at.slice(0, 40), services };
}

/** The kept nights of `target`, oldest first, and a note per file left out. */
export async function readNights(
  dir: string,
  target: 'mock' | 'live',
  limit = DEFAULT_NIGHTS_KEPT,
): Promise<{ nights: Night[]; notes: string[] }> {
  const folder = join(dir, target);
  const files = (await readdir(folder).catch(() => []))
    .filter((f) => FILE.test(f))
    .sort()
    .slice(-limit);
  const nights: Night[] = [];
  const notes: string[] = [];
  for (const file of files) {
    // Only a regular file, read from the handle it was checked on, at most the cap (see `evidence/files.ts`).
    const read = await readCapped(join(folder, file), MAX_FILE_BYTES);
    if ('refused' in read) {
      notes.push(`${file}: ${read.refused}, left out`);
      continue;
    }
    let night: Night | undefined;
    try {
      night = parseNight(JSON.parse(read.text), target);
    } catch {
      night = undefined;
    }
    if (night) nights.push(night);
    else notes.push(`${file}: not a history entry of the ${target} target, left out`);
  }
  return { nights, notes };
}

/** Appends tonight and removes all but the newest `keep` nights of its target. */
export async function appendNight(dir: string, night: Night, keep = DEFAULT_NIGHTS_KEPT): Promise<string> {
  const folder = join(dir, night.target);
  // Old nights are deleted here: never through a link into another folder.
  await refuseLinkedFolder(folder);
  await mkdir(folder, { recursive: true });
  const path = join(folder, fileName(night));
  await writeFile(path, `${JSON.stringify(nightJson(night))}\n`, { flag: 'wx' });
  const files = (await readdir(folder)).filter((f) => FILE.test(f)).sort();
  await Promise.all(files.slice(0, Math.max(0, files.length - keep)).map((f) => rm(join(folder, f), { force: true })));
  return path;
}

/**
 * What changed from `last` to `tonight`, per service run both nights: regressions only (an operation verified
 * before and not now, records that vanished, a field no longer in every record). A service run last night and
 * skipped tonight is one change.
 */
export function compareNights(last: Night | undefined, tonight: Night): Change[] {
  if (!last) return [];
  const changes: Change[] = [];
  for (const [service, before] of last.services) {
    const now = tonight.services.get(service);
    if (before.state === 'skipped') continue;
    const verifiedBefore = [...before.operations].filter(([, op]) => op.verdict === 'verified');
    if (!now || now.state === 'skipped') {
      if (verifiedBefore.length > 0) {
        changes.push({
          kind: 'not-run-any-more',
          service,
          operations: verifiedBefore.map(([name]) => name),
          message: `${service}: ${verifiedBefore.length} operation(s) verified last night, not run tonight`,
        });
      }
      continue;
    }
    for (const [operation] of verifiedBefore) {
      const tonightOp = now.operations.get(operation);
      if (tonightOp?.verdict === 'verified') continue;
      changes.push({
        kind: 'no-longer-verified',
        service,
        operations: [operation],
        tonight: tonightOp ? tonightOp.verdict : 'absent',
        message: `${service} ${operation}: verified last night, ${tonightOp ? tonightOp.verdict : 'absent'} tonight`,
      });
    }
    for (const [operation, op] of before.operations) {
      const tonightOp = now.operations.get(operation);
      // A failed or unsent operation's records are part of its `no-longer-verified` change, not a second one.
      const answered = tonightOp && tonightOp.verdict !== 'not-run' && tonightOp.verdict !== 'failed';
      if (op.records > 0 && answered && tonightOp.records === 0) {
        changes.push({
          kind: 'no-records-any-more',
          service,
          operations: [operation],
          message: `${service} ${operation}: ${op.records} record(s) last night, none tonight`,
        });
      }
    }
    // Fields: only where tonight's answers held records, so "missing" means records came without it.
    const gone = new Map<string, string[]>();
    for (const [operation, op] of before.operations) {
      const tonightOp = now.operations.get(operation);
      if (!tonightOp || tonightOp.records === 0 || op.records === 0) continue;
      const present = new Set(tonightOp.fields);
      for (const field of op.fields) {
        if (!present.has(field)) gone.set(field, [...(gone.get(field) ?? []), operation]);
      }
    }
    for (const [field, operations] of [...gone].sort(([a], [b]) => a.localeCompare(b))) {
      changes.push({
        kind: 'field-gone',
        service,
        operations,
        field,
        message: `${service}: field ${field} was in every record last night, missing from records tonight (${operations.join(', ')})`,
      });
    }
  }
  return changes;
}

/** The per-service warnings CONTRACT_STRICT=1 makes red: the fields gone. */
export function historyWarnings(changes: Change[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const change of changes) {
    if (change.kind !== 'field-gone') continue;
    map.set(change.service, [...(map.get(change.service) ?? []), change.message]);
  }
  return map;
}
