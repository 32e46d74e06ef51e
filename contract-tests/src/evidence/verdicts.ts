/**
 * The three verdicts of a live check (see `coverage.ts` `Outcome`) and what decides between them for a rejected
 * request: what it rested on. A guess (then a rejection is inconclusive), a record the service itself listed (then
 * a 404 fails), a cursor (then the documented 404 says "nothing after it"), or the operator's own value.
 */
import type { Outcome } from './coverage.ts';

/** What a request rested on. */
export interface Basis {
  guess?: string;
  listed?: string;
  /** The inputs the request carried, for the message of a rejection (`path.id=1101, query.limit=50, a body`). */
  sent?: string;
  /** The record asked for, as its keys (`id=1101`, `owner=acme, repo=tool`). */
  record?: string;
  /** A cursor parameter (`x-contract-cursor`), with where the vendor documents it. */
  cursor?: string;
  /** A value the operator configured (`STORE_APP_CODE`), not one the service listed. */
  operatorValue?: string;
  /** The suite made up part of the request (a required query value, a body): a rejection only warns. */
  constructed?: string;
}

/** The verdicts one or more checks reached, as "operation: check: detail" lines. */
export interface Verdicts {
  fail: string[];
  warning: string[];
  inconclusive: string[];
}

export const noVerdicts = (): Verdicts => ({ fail: [], warning: [], inconclusive: [] });

export function merge(into: Verdicts, from: Verdicts): Verdicts {
  into.fail.push(...from.fail);
  into.warning.push(...from.warning);
  into.inconclusive.push(...from.inconclusive);
  return into;
}

/** The gravest verdict of a set: fail, warning, inconclusive, else passed. */
export function worst(verdicts: Verdicts): { outcome: Exclude<Outcome, 'skipped'>; lines: string[] } {
  if (verdicts.fail.length) return { outcome: 'failed', lines: verdicts.fail };
  if (verdicts.warning.length) return { outcome: 'warning', lines: verdicts.warning };
  if (verdicts.inconclusive.length) return { outcome: 'inconclusive', lines: verdicts.inconclusive };
  return { outcome: 'passed', lines: [] };
}
