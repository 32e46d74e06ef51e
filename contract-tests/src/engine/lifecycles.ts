/**
 * Live write runs (CONTRACT_ALLOW_WRITES=<service>): the only way the contract suite writes to a live service.
 *
 * - Every record the run creates carries the run's marker, `agent-apis-contract-run <ISO time> <pid> <secret>`,
 *   where the secret is 24 random hex digits drawn once per run. A record is this run's own only while a fresh
 *   read of it shows this exact marker (or the marker plus ` (updated)`): it is re-read and checked before every
 *   update and every delete, and a record found without it is left alone.
 * - Record families come from the service's lifecycle profile (data, passed in by the service's contract file):
 *   create → read back → update → read back → list contains → delete → read is 404, each ending with the record
 *   counts it started with. A family under another (a product's variants) first creates its own parent chain,
 *   checked the same way, and removes it afterwards.
 * - The sweeper of earlier crashed runs deletes a record only when it still carries a complete marker in the
 *   strict format above, is over an hour old (never a younger run's, never one dated in the future), is still
 *   kept from shoppers (the family's `hidden` field), and still is all of that when read again just before the
 *   delete. Families with no such field are never swept.
 * - Operations classed `dangerous` run only as steps of a profile family whose every dangerous operation is named
 *   in CONTRACT_ALLOW_DANGEROUS, i.e. only on ids the run created and always followed by the delete. No broken
 *   copy, no copy without credentials, no second call: a dangerous operation outside such a family is never sent.
 * - Every request goes through the caller's `call`, i.e. through the service's live budget.
 */
import { randomBytes } from 'node:crypto';
import { APIError } from '@agent-apis/core';
import { describe, expect, it } from 'vitest';
import type { ContractOperation, ContractSpec } from '../contract-spec/spec.ts';
import type { CoverageRecorder } from '../evidence/coverage.ts';
import type { CallInput } from './values.ts';

/** First word of every marker a live run writes. */
export const RUN_MARKER = 'agent-apis-contract-run';

/** A marked record younger than this may belong to a run still going (another process's included). */
export const SWEEP_AFTER_MS = 60 * 60_000;

/** What a record created by this run carries, and its parts. */
export interface RunMarker {
  text: string;
  /** The record's text after an update step. */
  updated: string;
  time: string;
  pid: number;
  /** Random, drawn once per run: no other run and no store owner can write this run's marker. */
  secret: string;
}

export function createRunMarker(
  now: Date = new Date(),
  pid: number = process.pid,
  secret: string = randomBytes(12).toString('hex'),
): RunMarker {
  const time = now.toISOString();
  const text = `${RUN_MARKER} ${time} ${pid} ${secret}`;
  return { text, updated: `${text} (updated)`, time, pid, secret };
}

const MARKER_FORMAT = new RegExp(
  `^${RUN_MARKER} (\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z) ([1-9]\\d{0,9}) ([0-9a-f]{24})(?: \\(updated\\))?$`,
);

/**
 * The parts of a complete marker in the suite's exact format, or undefined. The time must be the strict
 * `toISOString` form of a real instant (`2026-02-31…` is refused); anything `Date.parse` merely accepts (`2`,
 * `X-1`, `2019`) is not a marker.
 */
export function parseMarker(value: unknown): { time: number; pid: number; secret: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = MARKER_FORMAT.exec(value);
  if (!match) return undefined;
  const [, iso = '', pid = '', secret = ''] = match;
  const time = Date.parse(iso);
  if (!Number.isFinite(time) || new Date(time).toISOString() !== iso) return undefined;
  return { time, pid: Number(pid), secret };
}

/** Whether `value` is a complete marker of a run over `SWEEP_AFTER_MS` old (and not dated in the future). */
export function isStaleMarker(value: unknown, now: number = Date.now()): boolean {
  const marker = parseMarker(value);
  return marker !== undefined && marker.time <= now && now - marker.time > SWEEP_AFTER_MS;
}

/** Whether `value` is this run's marker (as created or as updated). */
export function isOwnMarker(value: unknown, marker: RunMarker): boolean {
  return value === marker.text || value === marker.updated;
}

/** The value at a dotted path (`shipping_address.name`). */
export function valueAt(record: unknown, path: string): unknown {
  let value = record;
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function withValueAt(fields: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [key = '', ...rest] = path.split('.');
  if (rest.length === 0) return { ...fields, [key]: value };
  const inner = (fields[key] && typeof fields[key] === 'object' ? fields[key] : {}) as Record<string, unknown>;
  return { ...fields, [key]: withValueAt(inner, rest.join('.'), value) };
}

type Fields = Record<string, unknown>;

/** One record family a live write run may create and remove. Operations are named by operation id. */
export interface LifecycleFamily {
  /** Name in titles and reports (`products`, `product_variants`). */
  name: string;
  create: string;
  get: string;
  list: string;
  /** Absent: the family has no update operation, the step is reported as skipped. */
  update?: string;
  /** Absent: the record goes with its parent's delete (a product's variants), checked by a 404 afterwards. */
  remove?: string;
  /** The family this one lives under; its record, created by the same lifecycle, supplies the path. */
  parent?: string;
  /** The path parameter naming this family's record in get, update and delete (`id`, `variant_id`). */
  idParam: string;
  /** The single property request and answer bodies wrap the record in (`product`). */
  wrapper: string;
  /**
   * Where the record carries the marker (dotted path), and what it holds there when not the marker's text
   * (a short field such as a SKU). Absent: the record has no field for it; it is this run's own only as a child
   * of a parent whose marker was checked, under the id its create answered.
   */
  marker?: { at: string; value?: (marker: RunMarker) => string };
  /** Fields of the create body besides the marker. */
  fields: (marker: RunMarker) => Fields;
  /** The update body's fields and the dotted path whose new value must read back. */
  change?: { fields: (marker: RunMarker) => Fields; check?: string };
  /** Query of the update call, for an update that takes its change in the query. */
  changeQuery?: Record<string, unknown>;
  /** The field and the values of it that keep a record of this family from shoppers; only such records are swept. */
  hidden?: { at: string; values: readonly unknown[]; note: string };
}

/** What a service's contract file passes in: its families, and why each other write-classed create has none. */
export interface LifecycleProfile {
  families: readonly LifecycleFamily[];
  /** Create operation id → why the run never creates records of it. */
  without: Readonly<Record<string, string>>;
}

interface Outcome {
  result?: unknown;
  error?: unknown;
  /** The last answer seen, its body parsed. */
  seen?: { status: number; body?: unknown };
}

/** What `checks/live.ts` lends the lifecycles: its budgeted call, its response checks and the coverage recorder. */
export interface LifecycleContext {
  call(operation: ContractOperation, input: CallInput): Promise<Outcome>;
  checkAnswer(operation: ContractOperation, outcome: Outcome, label: string): string[];
  recorder: CoverageRecorder;
  /** Makes a message safe to record: the base URL (and its user info) replaced by its variable. */
  scrub?: (message: string) => string;
}

interface Resolved {
  family: LifecycleFamily;
  ops: {
    create: ContractOperation;
    get: ContractOperation;
    list: ContractOperation;
    update?: ContractOperation;
    remove?: ContractOperation;
  };
  chain: Resolved[];
  dangerous: string[];
}

export interface LifecyclePlan {
  /** Families that run, parents first. */
  families: { name: string; operations: string[]; dangerous: string[] }[];
  /** Why a non-read operation is not sent by itself; undefined when a lifecycle of this run sends it. */
  skipReason(operation: ContractOperation): string | undefined;
  define(context: LifecycleContext): void;
}

export interface LifecyclePlanOptions {
  service: string;
  spec: ContractSpec;
  profile: LifecycleProfile | undefined;
  writesAllowed: boolean;
  /** Operation ids named in CONTRACT_ALLOW_DANGEROUS. */
  dangerousAllowed: ReadonlySet<string>;
  /** Fixed in tests; drawn fresh otherwise. */
  marker?: RunMarker;
}

/** Operation ids named in CONTRACT_ALLOW_DANGEROUS. */
export function dangerousOperations(env: Record<string, string | undefined> = process.env): Set<string> {
  return new Set(
    (env.CONTRACT_ALLOW_DANGEROUS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

export function planLifecycles(options: LifecyclePlanOptions): LifecyclePlan {
  const { service, spec, profile, writesAllowed, dangerousAllowed } = options;
  const byId = new Map(spec.operations.map((op) => [op.id, op]));
  const problems = new Map<string, string>();
  const resolved = new Map<string, Resolved>();
  for (const family of profile?.families ?? []) {
    const ids = {
      create: family.create,
      get: family.get,
      list: family.list,
      update: family.update,
      remove: family.remove,
    };
    const missing = Object.values(ids).filter((id) => id !== undefined && !byId.has(id));
    const parent = family.parent === undefined ? undefined : resolved.get(family.parent);
    const writes = [ids.create, ids.update, ids.remove].flatMap((id) => (id ? [byId.get(id)] : []));
    const reads = [byId.get(ids.get), byId.get(ids.list)];
    let problem: string | undefined;
    if (missing.length > 0) problem = `${missing.join(', ')} not in the spec`;
    else if (family.parent !== undefined && !parent) problem = `its parent family ${family.parent} does not run`;
    else if (reads.some((op) => op?.safety !== 'read')) problem = 'its read or list operation is not classed read';
    else if (writes.some((op) => op?.safety === 'read')) problem = 'a create, update or delete is classed read';
    if (problem) {
      problems.set(family.name, problem);
      continue;
    }
    const ops = Object.fromEntries(
      Object.entries(ids).flatMap(([step, id]) => (id ? [[step, byId.get(id) as ContractOperation]] : [])),
    ) as Resolved['ops'];
    const own = writes.filter((op) => op?.safety === 'dangerous').map((op) => (op as ContractOperation).id);
    const entry: Resolved = {
      family,
      ops,
      chain: [...(parent?.chain ?? []), ...(parent ? [parent] : [])],
      dangerous: [...new Set([...(parent?.dangerous ?? []), ...own])],
    };
    resolved.set(family.name, entry);
  }
  const runs = (entry: Resolved) => writesAllowed && entry.dangerous.every((id) => dangerousAllowed.has(id));
  const running = [...resolved.values()].filter(runs);
  // A parent's create/delete run in its children's chains too: any running family that uses an operation sends it.
  const sentBy = new Map<string, string>();
  for (const entry of running) {
    for (const step of [...entry.chain, entry]) {
      for (const op of [step.ops.create, step.ops.update, step.ops.remove]) {
        if (op && !sentBy.has(op.id)) sentBy.set(op.id, entry.family.name);
      }
    }
  }
  const familyOf = (operation: ContractOperation) =>
    [...resolved.values()].find((entry) =>
      [entry.ops.create, entry.ops.update, entry.ops.remove].some((op) => op?.id === operation.id),
    );

  return {
    families: running.map((entry) => ({
      name: entry.family.name,
      operations: [entry.ops.create, entry.ops.update, entry.ops.remove].flatMap((op) => (op ? [op.id] : [])),
      dangerous: entry.dangerous,
    })),
    skipReason(operation) {
      if (operation.safety === 'read') return undefined;
      if (sentBy.has(operation.id)) return undefined;
      const family = familyOf(operation);
      if (operation.safety === 'dangerous') {
        if (!family) {
          return 'dangerous operation: no lifecycle of this run creates and removes its record: never sent live';
        }
        const named = family.dangerous.join(',');
        return writesAllowed
          ? `dangerous operation: sent live only inside the ${family.family.name} lifecycle, with CONTRACT_ALLOW_DANGEROUS=${named}`
          : `dangerous operation: sent live only inside the ${family.family.name} lifecycle, with CONTRACT_ALLOW_WRITES=${service} and CONTRACT_ALLOW_DANGEROUS=${named}`;
      }
      if (!writesAllowed) {
        return `write operation: live runs only read unless CONTRACT_ALLOW_WRITES=${service} (sandbox only)`;
      }
      const reason = profile?.without[operation.id];
      if (reason) return `write operation with no lifecycle: ${reason}`;
      if (family) return `write operation: its ${family.family.name} lifecycle does not run`;
      return 'write outside a create → delete lifecycle of a record this run creates: not sent live';
    },
    define(context) {
      if (!writesAllowed) return;
      defineLifecycles(context, running, problems, options);
    },
  };
}

function defineLifecycles(
  context: LifecycleContext,
  running: Resolved[],
  problems: Map<string, string>,
  options: LifecyclePlanOptions,
): void {
  const { call, checkAnswer, recorder } = context;
  const scrub = context.scrub ?? ((message: string) => message);
  const { service, spec, profile } = options;
  const marker = options.marker ?? createRunMarker();
  const creates = new Set((profile?.families ?? []).map((family) => family.create));

  /** Pages of a list, at most 20 of the largest size the list allows; entries unwrapped. */
  const listAll = async (entry: Resolved, path: Record<string, unknown>) => {
    const list = entry.ops.list;
    const limitParam = list.parameters.find((p) => p.name === 'limit' && p.in === 'query');
    const paged = list.parameters.some((p) => p.name === 'page' && p.in === 'query');
    const size = Math.min(100, Number((limitParam?.schema as { maximum?: number })?.maximum ?? 100));
    const entries: Fields[] = [];
    for (let page = 1; page <= 20; page++) {
      const query = { ...(limitParam ? { limit: size } : {}), ...(paged ? { page } : {}) };
      const outcome = await call(list, { path, query });
      if ('error' in outcome) throw outcome.error;
      const batch = (outcome.result as Fields[]).map((e) => (e?.[entry.family.wrapper] ?? e) as Fields);
      entries.push(...batch);
      if (!paged || !limitParam || batch.length < size) break;
    }
    return entries;
  };

  const wrapFields = (entry: Resolved, fields: Fields) => ({ [entry.family.wrapper]: fields });
  const unwrap = (entry: Resolved, result: unknown) =>
    (result as Fields | undefined)?.[entry.family.wrapper] as Fields | undefined;
  const markerValue = (family: LifecycleFamily) => family.marker?.value?.(marker) ?? marker.text;
  const carriesOwnMarker = (family: LifecycleFamily, record: Fields | undefined, updated = false) => {
    if (!family.marker) return true;
    const value = valueAt(record, family.marker.at);
    if (family.marker.value) return value === family.marker.value(marker);
    return updated ? isOwnMarker(value, marker) : value === marker.text;
  };

  describe(`${service} write lifecycles (live, records marked ${RUN_MARKER} … ${marker.pid} <run secret>)`, () => {
    for (const [name, problem] of problems) {
      it.skip(`${name}: skipped: ${problem}`, () => expect.unreachable());
    }
    for (const [id, reason] of Object.entries(profile?.without ?? {})) {
      if (options.spec.operations.some((op) => op.id === id)) recorder.skip(id, 'lifecycle', reason);
    }
    const uncovered = spec.operations.filter(
      (op) => op.method === 'POST' && op.safety === 'write' && !creates.has(op.id) && !profile?.without[op.id],
    );
    for (const op of uncovered) {
      const reason = 'no lifecycle in the service profile creates and removes this record';
      recorder.skip(op.id, 'lifecycle', reason);
      it.skip(`${op.id}: skipped: ${reason}`, () => expect.unreachable());
    }

    for (const entry of running) {
      const { family } = entry;
      const root = entry.chain[0] ?? entry;
      const steps = `create → read → ${family.update ? 'update → ' : ''}list → ${family.remove ? 'delete' : `${root.family.name} delete`} → 404`;
      const title = `${family.name}: ${entry.chain.length ? `under a ${entry.chain.map((c) => c.family.name).join(' → ')} of this run, ` : ''}${steps}, record counts equal${entry.dangerous.length ? `, dangerous: ${entry.dangerous.join(', ')}` : ''}`;
      it(title, async () => {
        const counts = { before: 0, after: 0, swept: 0, left: 0, collection: root.family.name };
        recorder.attach(`records:${family.name}`, counts);
        const done = recorder.begin(entry.ops.create.id, `lifecycle:${family.name}`);
        try {
          const failures: string[] = [];
          const expectOk = (operation: ContractOperation, outcome: Outcome, step: string) => {
            const found = checkAnswer(operation, outcome, `${family.name} ${step}`);
            if ('error' in outcome) {
              throw new Error(
                scrub(`${family.name} ${step}: ${operation.id} failed: ${(outcome.error as Error).message}`),
              );
            }
            failures.push(...found);
            return outcome.result;
          };
          /** The record a read answered, if it is this run's own (same id, this run's marker), else undefined. */
          const ownRecord = (step: Resolved, path: Record<string, unknown>, outcome: Outcome, updated: boolean) => {
            if ('error' in outcome) return undefined;
            const record = unwrap(step, outcome.result);
            const idOk = String(record?.id) === String(path[step.family.idParam]);
            return idOk && carriesOwnMarker(step.family, record, updated) ? record : undefined;
          };
          /** The record at `path`, read now, if it is this run's own. */
          const readOwn = async (step: Resolved, path: Record<string, unknown>, updated: boolean) =>
            ownRecord(step, path, await call(step.ops.get, { path }), updated);

          // The sweeper, on the collection this lifecycle counts (only families that can be hidden).
          if (entry.chain.length === 0) await sweep(entry, counts);
          counts.before = (await listAll(root, {})).length;

          // Parents first: each created, read back and checked; deleted in reverse order in `finally`.
          const made: { step: Resolved; path: Record<string, unknown>; updated: boolean; gone: boolean }[] = [];
          try {
            for (const step of [...entry.chain, entry]) {
              const isTarget = step === entry;
              const parentPath = made.at(-1)?.path ?? {};
              let fields = step.family.fields(marker);
              if (step.family.marker) fields = withValueAt(fields, step.family.marker.at, markerValue(step.family));
              const countBefore = isTarget ? (await listAll(step, parentPath)).length : 0;
              const outcome = await call(step.ops.create, { path: parentPath, body: wrapFields(step, fields) });
              // The id the service answered, even in an answer the client refused, so a record that was created
              // is still found, checked and removed.
              const answered =
                'error' in outcome
                  ? outcome.seen && outcome.seen.status < 300
                    ? outcome.seen.body
                    : undefined
                  : outcome.result;
              const id = unwrap(step, answered)?.id;
              const path = { ...parentPath, [step.family.idParam]: id };
              const record = { step, path, updated: false, gone: false };
              // Read back before anything else: the record is this run's only if it shows this run's marker.
              const readBack = id === undefined ? undefined : await call(step.ops.get, { path });
              const own = readBack && ownRecord(step, path, readBack, false);
              if (own) made.push(record);
              else if (step.family.marker) {
                // The answer named no record of this run (or another one): look for this run's marker in the list,
                // so what was created is removed; the lifecycle still fails below.
                const listed = (await listAll(step, parentPath)).find((e) => carriesOwnMarker(step.family, e, false));
                const found = listed && { ...parentPath, [step.family.idParam]: listed.id };
                if (found && (await readOwn(step, found, false))) made.push({ ...record, path: found });
              }
              if (isTarget) expectOk(step.ops.create, outcome, 'create');
              else if ('error' in outcome) {
                throw new Error(scrub(`${step.family.name} create: ${(outcome.error as Error).message}`));
              }
              expect(id, `${step.family.name}: the create answer names the new record's id`).toBeDefined();
              if (isTarget && readBack) expectOk(step.ops.get, readBack, 'read back');
              expect(own, `${step.family.name} ${id}: read back, it carries this run's marker`).toBeDefined();
              if (!isTarget) continue;

              if (step.ops.update && step.family.change) {
                const change = step.family.change.fields(marker);
                const updated = await call(step.ops.update, {
                  path,
                  ...(step.ops.update.body ? { body: wrapFields(step, change) } : {}),
                  ...(step.family.changeQuery ? { query: step.family.changeQuery } : {}),
                });
                expectOk(step.ops.update, updated, 'update');
                record.updated = true;
                const after = await readOwn(step, path, true);
                expect(after, `${step.family.name} ${id}: still this run's record after the update`).toBeDefined();
                const check = step.family.change.check;
                if (check !== undefined) {
                  const sent = valueAt(change, check) ?? valueAt(step.family.changeQuery, check);
                  expect(valueAt(after, check), `${step.family.name}: the update reads back (${check})`).toEqual(sent);
                }
              }
              const listed = await listAll(step, parentPath);
              expect(
                listed.some((e) => String(e.id) === String(id)),
                `${step.family.name}: the list contains the record`,
              ).toBe(true);
              if (step.ops.remove) {
                const still = await readOwn(step, path, record.updated);
                expect(still, `${step.family.name} ${id}: this run's record before the delete`).toBeDefined();
                expectOk(step.ops.remove, await call(step.ops.remove, { path }), 'delete');
                record.gone = true;
                await expectNotFound(step, path, 'read after delete');
                const countAfter = (await listAll(step, parentPath)).length;
                expect(countAfter, `${step.family.name}: count in its collection after the delete`).toBe(countBefore);
              }
            }
          } finally {
            // Reverse order: the target (if its delete did not run), then its parents; each re-read and checked.
            const cleanup: string[] = [];
            for (const record of made.reverse()) {
              if (record.gone || !record.step.ops.remove) continue;
              const own = await readOwn(record.step, record.path, record.updated);
              if (!own) {
                cleanup.push(
                  `${record.step.family.name} ${JSON.stringify(record.path)} no longer shows this run's marker: left alone`,
                );
                continue;
              }
              const removed = await call(record.step.ops.remove, { path: record.path });
              if ('error' in removed)
                cleanup.push(scrub(`${record.step.family.name} delete failed: ${(removed.error as Error).message}`));
              else record.gone = true;
            }
            // A record without its own delete went with its parent.
            for (const record of made) {
              if (!record.step.ops.remove && made.some((m) => m.gone && m !== record)) {
                await expectNotFound(record.step, record.path, `read after the ${root.family.name} delete`);
              }
            }
            counts.after = (await listAll(root, {})).length;
            failures.push(...cleanup);
          }
          expect(failures, `${family.name} lifecycle`).toEqual([]);
          expect(counts.after, `${family.name}: ${root.family.name} count after the run equals the count before`).toBe(
            counts.before,
          );
          done(
            `${root.family.name} before ${counts.before}, after ${counts.after}, swept ${counts.swept}` +
              `${counts.left ? `, left ${counts.left} marked record(s) the sweeper may not take` : ''}` +
              `${family.hidden ? `, created ${family.hidden.note}` : ''}`,
          );
        } catch (error) {
          recorder.fail(entry.ops.create.id, `lifecycle:${family.name}`, scrub((error as Error).message));
          throw error;
        }
      });
    }
  });

  async function expectNotFound(step: Resolved, path: Record<string, unknown>, label: string) {
    const gone = await call(step.ops.get, { path });
    expect(gone.error, `${step.family.name}: ${label}`).toBeInstanceOf(APIError);
    expect((gone.error as APIError).status, `${step.family.name}: ${label} is 404`).toBe(404);
  }

  /**
   * Deletes the records an earlier run of the suite created and could not delete: complete marker, over an hour
   * old, another run's secret, still hidden, and all of it still true when read again just before the delete.
   */
  async function sweep(entry: Resolved, counts: { swept: number; left: number }) {
    const { family } = entry;
    if (!family.marker || family.marker.value || !entry.ops.remove) return;
    const stale = (record: Fields | undefined) => {
      const value = valueAt(record, family.marker?.at ?? '');
      return isStaleMarker(value) && parseMarker(value)?.secret !== marker.secret;
    };
    const hidden = (record: Fields | undefined) =>
      family.hidden?.values.includes(valueAt(record, family.hidden.at)) === true;
    for (const listed of await listAll(entry, {})) {
      if (!stale(listed)) continue;
      if (!hidden(listed)) {
        counts.left++;
        continue;
      }
      const path = { [family.idParam]: listed.id };
      const outcome = await call(entry.ops.get, { path });
      const record = 'error' in outcome ? undefined : unwrap(entry, outcome.result);
      if (String(record?.id) !== String(listed.id) || !stale(record) || !hidden(record)) continue;
      const removed = await call(entry.ops.remove as ContractOperation, { path });
      if (!('error' in removed)) counts.swept++;
    }
  }
}
