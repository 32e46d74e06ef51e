/**
 * The sampling check: which records a run looks up, and which pages of a list it reads. A list is read at its
 * first page, its last page (found by doubling then halving, `lastPage`) and CONTRACT_PAGES pages between, chosen
 * by the run's seed (`CONTRACT_SEED`, printed with the run) mixed with the list's own request, so a run replays
 * exactly. Every page read is examined (`baseline.ts`), and lookups take their path values from the entries of the
 * chosen pages: an equal share of CONTRACT_SAMPLE from each, the first and last entry of each among them. Answers
 * are shared: a list page read for a lookup and for the list's own check is requested once.
 */

import type { ContractOperation } from '../contract-spec/spec.ts';
import type { CallOutcome, LiveRun } from '../engine/run.ts';
import { atIndex, choosePages, lastPage, listAt, seededRandom, spread, spreadPages } from '../engine/sampling.ts';
import type { CallInput } from '../engine/values.ts';
import { recordsOf } from '../evidence/fields.ts';
import { type Basis, merge, type Verdicts } from '../evidence/verdicts.ts';
import { type AnswerKind, type Examined, examineAnswer } from './baseline.ts';
import { type IdentityKey, recordPointer } from './identity.ts';

export interface PathSample {
  values: Record<string, unknown>;
  basis: Basis;
  /** The keys the answer must carry to be the record asked for (`identity.ts`). */
  identity: IdentityKey[];
}

export interface Answered {
  outcome: CallOutcome;
  examined: Examined;
}

/** A list read page by page: the pages chosen (their answers), or why it could not be read. */
export interface Listing {
  pages: { page: number; answer: Answered }[];
  /** The last page with entries. */
  last: number;
  failed?: string;
}

/** Answers by operation and input: each request of a run is sent and examined once, its verdicts shared. */
export class Answers {
  readonly #answers = new Map<string, Promise<Answered>>();
  readonly #listings = new Map<string, Promise<Listing>>();

  readonly run: LiveRun;

  constructor(run: LiveRun) {
    this.run = run;
  }

  /** The answer to `operation` with `input`, examined as `kind` the first time it is asked for. */
  answer(
    operation: ContractOperation,
    input: CallInput,
    label: string,
    basis: Basis,
    kind: AnswerKind,
    identity: IdentityKey[] = [],
  ): Promise<Answered> {
    const key = `${operation.id} ${JSON.stringify(input)}`;
    let answer = this.#answers.get(key);
    if (!answer) {
      answer = this.run.call(operation, input).then((outcome) => {
        const quota = this.run.profile.budget.quota;
        if (quota && outcome.seen && outcome.seen.status < 300) this.run.budget.spendScans(quota.cost(input));
        return { outcome, examined: examineAnswer(this.run, operation, outcome, label, basis, kind, identity) };
      });
      this.#answers.set(key, answer);
    }
    return answer;
  }

  /** The input of page `page` of a list, when it pages (`page`, else `offset`) with pages of `size`. */
  pageInput(operation: ContractOperation, input: CallInput, page: number, size: number): CallInput | undefined {
    const query = operation.parameters.filter((p) => p.in === 'query');
    if (page === 1) return input;
    if (query.some((p) => p.name === 'page')) return { ...input, query: { ...input.query, page } };
    if (query.some((p) => p.name === 'offset'))
      return { ...input, query: { ...input.query, offset: (page - 1) * size } };
    return undefined;
  }

  /** The page size a list answers with its required inputs: its `limit` default, else what page 1 held. */
  pageSize(operation: ContractOperation, input: CallInput, firstPageCount: number): number {
    const limit = operation.parameters.find((p) => p.in === 'query' && p.name === 'limit');
    const size = Number(input.query?.limit ?? limit?.schema.default);
    return Number.isFinite(size) && size > 0 ? size : firstPageCount;
  }

  /**
   * Reads `operation` (a list) with path values `path`: page 1, then, when page 1 is full and the list pages, its
   * last page and pages between them chosen by the seed. Shared by every check that needs it.
   */
  listing(operation: ContractOperation, path: Record<string, unknown>, basis: Basis): Promise<Listing> {
    const key = `${operation.id} ${JSON.stringify(path)}`;
    let listing = this.#listings.get(key);
    if (!listing) {
      listing = this.#readListing(operation, path, basis, key);
      this.#listings.set(key, listing);
    }
    return listing;
  }

  async #readListing(operation: ContractOperation, path: Record<string, unknown>, basis: Basis, key: string) {
    const run = this.run;
    const input = run.inputFor(operation, 'required', path);
    const first = await this.answer(
      operation,
      input,
      labelOf('required', basis),
      run.basisOf(operation, input, basis),
      'baseline',
    );
    if ('error' in first.outcome) {
      const reason = run.scrub(first.outcome.notSent ?? `its answer failed: ${(first.outcome.error as Error).message}`);
      return { pages: [{ page: 1, answer: first }], last: 1, failed: reason };
    }
    const count = recordsOf(first.outcome.seen?.body).length;
    const size = this.pageSize(operation, input, count);
    const read = new Map<number, Answered>([[1, first]]);
    const readPage = async (page: number): Promise<Answered | undefined> => {
      const pageInput = this.pageInput(operation, input, page, size);
      if (!pageInput) return undefined;
      const known = read.get(page);
      if (known) return known;
      const pageBasis = { ...run.basisOf(operation, pageInput, basis), constructed: 'a page the suite chose' };
      const answered = await this.answer(operation, pageInput, `page ${page}`, pageBasis, 'page');
      read.set(page, answered);
      return answered;
    };
    let last = 1;
    if (count > 0 && count >= size && this.pageInput(operation, input, 2, size)) {
      last = await lastPage(async (page) => {
        const answered = await readPage(page);
        return (
          answered !== undefined && !('error' in answered.outcome) && recordsOf(answered.outcome.seen?.body).length > 0
        );
      });
    }
    const chosen = choosePages(last, run.pagesBetween, seededRandom(mix(run.seed, key)));
    const pages = [];
    for (const page of chosen) {
      const answer = await readPage(page);
      if (answer) pages.push({ page, answer });
    }
    return { pages, last };
  }

  /**
   * Up to `wanted` real path-value sets for `operation`, or why there are none. `found` collects the verdicts of
   * the answers read on the way (for the test that asked).
   */
  async pathSamples(operation: ContractOperation, wanted: number, found: Verdicts): Promise<PathSample[] | string> {
    const run = this.run;
    let samples: PathSample[] = [{ values: {}, basis: {}, identity: [] }];
    const pathParameters = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const done = new Set<string>();
    for (const name of pathParameters) {
      if (done.has(name)) continue;
      const source = operation.sources[name];
      if (!source) return `no source for path parameter ${name}`;
      done.add(name);
      if (source.kind === 'enum') {
        for (const sample of samples) {
          sample.values[name] = source.value;
          sample.basis = { ...sample.basis, constructed: `a documented ${name} the suite chose (${source.value})` };
        }
        continue;
      }
      if (source.kind === 'env') {
        const value = process.env[source.env];
        if (!value) return `no ${source.resource} configured (${source.env})`;
        for (const sample of samples) {
          sample.values[name] = value;
          sample.basis = { ...sample.basis, operatorValue: source.env };
        }
        continue;
      }
      // This parameter and its siblings (same source, same carried values) come from one entry of one answer.
      const siblings = pathParameters.filter((other) => {
        const s = operation.sources[other];
        return (
          !done.has(other) &&
          s?.kind === 'response' &&
          s.from === source.from &&
          JSON.stringify(s.carry) === JSON.stringify(source.carry)
        );
      });
      for (const sibling of siblings) done.add(sibling);
      const pointers = { [name]: source.pointer } as Record<string, string>;
      for (const sibling of siblings) {
        const s = operation.sources[sibling];
        if (s?.kind === 'response') pointers[sibling] = s.pointer;
      }
      const from = run.byId.get(source.from);
      if (!from) return `source operation ${source.from} is not in the spec`;
      const fromParameters = from.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      const carried = fromParameters.every((p) => p in source.carry);
      const next: PathSample[] = [];
      let reason = `no ${source.resource} in the live account`;
      for (const sample of samples) {
        const carry = Object.fromEntries(
          Object.entries(source.carry)
            .filter(([, targetName]) => sample.values[targetName] !== undefined)
            .map(([fromName, targetName]) => [fromName, sample.values[targetName]]),
        );
        let fromPaths: { values: Record<string, unknown>; basis: Basis }[];
        if (carried || fromParameters.length === 0) fromPaths = [{ values: carry, basis: {} }];
        else {
          const own = await this.pathSamples(from, wanted, found);
          if (typeof own === 'string') return own;
          fromPaths = [
            ...new Map(
              own.map((o) => [
                JSON.stringify({ ...o.values, ...carry }),
                { values: { ...o.values, ...carry }, basis: o.basis },
              ]),
            ).values(),
          ];
        }
        const pages: PathSample[][] = [];
        for (const fromPath of fromPaths) {
          const listing = await this.listing(from, fromPath.values, fromPath.basis);
          for (const { answer } of listing.pages) merge(found, answer.examined.verdicts);
          if (listing.failed) {
            reason = `its source ${source.from} failed: ${listing.failed}`;
            continue;
          }
          for (const { page, answer } of listing.pages) {
            if ('error' in answer.outcome) continue;
            const body = answer.outcome.seen?.body;
            const first = Object.values(pointers)[0] as string;
            const entries = listAt(body, first);
            const candidates: PathSample[] = [];
            entries.forEach((_, index) => {
              const values: Record<string, unknown> = { ...sample.values };
              for (const [parameter, pointer] of Object.entries(pointers)) {
                values[parameter] = listAt(body, pointer).length ? atIndexValue(body, pointer, index) : undefined;
              }
              if (Object.keys(pointers).some((p) => values[p] === undefined || values[p] === null || values[p] === ''))
                return;
              const where = `${source.from}${page > 1 ? ` page ${page}` : ''} entry ${index}`;
              const keys = Object.entries(pointers).flatMap(([parameter, pointer]) => {
                const inRecord = recordPointer(pointer);
                return inRecord ? [{ parameter, pointer: inRecord, value: values[parameter] }] : [];
              });
              const recordText = [...Object.entries(values)].map(([k, v]) => `${k}=${String(v)}`).join(', ');
              candidates.push({
                values,
                basis:
                  source.declared === 'guess'
                    ? { guess: `its ${name} is a guess (${where}, link marked x-contract-guess)`, record: recordText }
                    : source.cursor
                      ? { ...sample.basis, cursor: source.cursor, record: recordText }
                      : { ...sample.basis, listed: where, record: recordText },
                // The keys of the innermost record only (a region's code, not its country's); a cursor or a guess
                // names no record the answer must be.
                identity: source.declared === 'guess' || source.cursor ? [] : keys,
              });
            });
            pages.push(source.cursor ? beforeNewest(candidates, name) : candidates);
          }
        }
        next.push(...spreadPages(pages, wanted));
      }
      samples = spread(next, wanted);
      if (samples.length === 0) return reason;
    }
    return samples;
  }
}

function atIndexValue(body: unknown, pointer: string, index: number): unknown {
  let node = body;
  for (const raw of atIndex(pointer, index).split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/**
 * A cursor's candidates without the newest one when there are others: after the newest record there may be
 * nothing (the documented 404), after any other there is at least one record.
 */
function beforeNewest(candidates: PathSample[], parameter: string): PathSample[] {
  if (candidates.length < 2) return candidates;
  const numbers = candidates.map((c) => Number(c.values[parameter]));
  if (numbers.some((n) => !Number.isFinite(n))) return candidates;
  const newest = Math.max(...numbers);
  return candidates.filter((_, i) => numbers[i] !== newest);
}

/** The label of a request in messages: `required`, with the record asked for. */
export function labelOf(coverage: string, basis: Basis): string {
  return basis.record ? `${coverage}, ${basis.record}` : coverage;
}

/** The run's seed mixed with a list's key (FNV-1a), so each list draws its own pages whatever runs first. */
function mix(seed: number, key: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
