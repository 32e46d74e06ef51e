/**
 * What one contract run proved, per operation and per service: the seam between the runner that reaches the
 * verdicts (`checks/live.ts` and its checks) and everything that reports them (history, HTML, JUnit, Markdown, nightly,
 * exit code). The runner writes one `evidence-<service>.json` per service next to its coverage file; the reporters
 * read only these files and the functions below.
 *
 * An operation ends the run with one verdict:
 * - `verified`: a valid request got a documented 2xx whose status, content type, headers and schema validated;
 * - `failed`: a promise of the contract is broken (see `checks/live.ts`);
 * - `warned`: the server was more lenient than the spec, or rejected a request the suite constructed;
 * - `inconclusive`: the request rested on a guess, or a 429 outlasted the budget;
 * - `not-run`: never sent, with the reason (not configured, a write without permission, its source failed, …).
 *
 * A service is `green` only when it has no failed operation and reached its evidence floor; short of the floor it
 * is `unverified`, which is never a pass. A service nobody configured is `skipped`. With CONTRACT_STRICT=1 a
 * warning fails the service too.
 *
 * The floor (default: every read that could run verified, and at least one operation verified) is set per service
 * with `CONTRACT_FLOOR_<SERVICE>` (`CONTRACT_FLOOR_STORE=getOrder,listOrdersAfter` for a store that really holds
 * no orders): a comma-separated list of operationIds allowed to stay unverified, and optionally `reads=<n>`
 * (at least n reads verified instead of all), `min=<n>` (at least n operations verified, never below 1) and
 * `lookups=<n>` (at least n lookups verified, default 1; `lookups=0` for an account that is really empty). A read
 * counts for the floor unless the run could not send it: an operator-only input not set, a metered budget too
 * small to plan it, no such record in the account (an account without webhooks), its request rested on a guess,
 * or its cursor was the newest record (`outsideFloor` says which). A run whose every list is empty still falls
 * short: no lookup verified.
 */
import { boundedNumber } from '../settings.ts';

export type OperationVerdict = 'verified' | 'failed' | 'warned' | 'inconclusive' | 'not-run';

export const OPERATION_VERDICTS: readonly OperationVerdict[] = [
  'verified',
  'failed',
  'warned',
  'inconclusive',
  'not-run',
];

/** One defect, once: where it was seen and how to see it again. */
export interface Failure {
  /** The named check that found it (`baseline`, `identity`, `sampling`, `negative`, `auth`, …). */
  check: string;
  /** One line, server text included as data (never rendered as markup). */
  message: string;
  /** The record the request was about (`id=1101`, `owner/repo=acme/tool`), when there was one. */
  record?: string;
  /** The URL sent, credentials removed. */
  url?: string;
  /** A one-line reproduction (`curl …`), credentials as environment variables (`$STORE_AUTH_TOKEN`), never values. */
  reproduction?: string;
}

export interface OperationEvidence {
  operation: string;
  method: string;
  path: string;
  /** `read`, `write`, `dangerous` (the overlay's `x-safety`). */
  safety: string;
  verdict: OperationVerdict;
  /** Why it is not verified (for `not-run`, `inconclusive`, `warned`), one line. */
  reason?: string;
  /**
   * Set when this unverified operation does not count for the evidence floor, with why: the run could not send it
   * by configuration (`no app configured (STORE_APP_CODE)`, a budget too small to plan it), its request rested on
   * a guess, or its cursor was the newest record (the documented 404: nothing after it).
   */
  outsideFloor?: string;
  /** A lookup of records the service itself listed (its path values came from the service's own answers). */
  lookup?: boolean;
  failures: Failure[];
  /** Warnings, one line each. */
  warnings: string[];
  /** Requests sent for this operation. */
  requests: number;
  /** Records its answers carried that were validated. */
  records: number;
  /**
   * Fields present in every record this operation returned this run, as dotted paths from the record
   * (`product.price`, `product.variants[].sku`); the history compares them night to night.
   */
  fieldsAlwaysPresent: string[];
}

/** The smallest evidence a service must reach to be green (documented in the contract-tests README). */
export interface EvidenceFloor {
  /** Read operations that could run and must be verified: `all` (default), or a count. */
  reads: 'all' | number;
  /** Operations that need no record must be verified, and at least this many operations overall (default 1). */
  minimumVerified: number;
  /** Operations allowed to stay unverified because the account holds no such record (`CONTRACT_FLOOR_<SERVICE>`). */
  exempt: string[];
  /**
   * Lookups (reads of records the service itself listed, `OperationEvidence.lookup`) that must be verified, when the
   * service has any (default 1): a run whose every list came back empty proved nothing about its records.
   * `lookups=0` for an account that is really empty.
   */
  minimumLookups?: number;
}

export type ServiceState = 'green' | 'failed' | 'unverified' | 'skipped';

export interface ServiceEvidence {
  service: string;
  target: 'mock' | 'live';
  /** ISO time the service's checks started. */
  startedAt: string;
  /** The sampling seed, printed with the run so it can be replayed (`CONTRACT_SEED`). */
  seed: string;
  /** Set when the service was not run at all, with the reason (`not configured`). */
  skipped?: string;
  floor: EvidenceFloor;
  /** CONTRACT_STRICT=1 was set: a warning fails the service. */
  strict?: boolean;
  operations: OperationEvidence[];
  budget?: BudgetFigures;
}

/** What a live run spent at a service (`engine/budget.ts` counts it). */
export interface BudgetFigures {
  requests: number;
  tooManyRequests: number;
  /** Services with a quota: units (scans) spent and allowed. */
  scans?: number;
  scanBudget?: number;
  /** Services with a rate limit: the limits the run kept to. */
  rateLimit?: string;
  /** 429s whose wait was not made (past CONTRACT_MAX_RETRY_AFTER, or a fourth in a row): handed to the check. */
  notWaited?: number;
}

export interface ServiceVerdict {
  service: string;
  state: ServiceState;
  verified: number;
  total: number;
  counts: Record<OperationVerdict, number>;
  /** Why the service is not green, one line each. */
  reasons: string[];
}

export const defaultFloor = (): EvidenceFloor => ({ reads: 'all', minimumVerified: 1, exempt: [] });

/** The state of a service from its evidence: failed on any fail, unverified short of its floor, else green. */
export function judgeService(evidence: ServiceEvidence): ServiceVerdict {
  const counts = Object.fromEntries(OPERATION_VERDICTS.map((v) => [v, 0])) as Record<OperationVerdict, number>;
  for (const op of evidence.operations) counts[op.verdict] += 1;
  const base = { service: evidence.service, verified: counts.verified, total: evidence.operations.length, counts };
  if (evidence.skipped !== undefined) return { ...base, state: 'skipped', reasons: [evidence.skipped] };
  const reasons: string[] = [];
  for (const op of evidence.operations) {
    if (op.verdict === 'failed') reasons.push(`${op.operation}: ${op.failures[0]?.message ?? 'failed'}`);
  }
  if (evidence.strict) {
    for (const op of evidence.operations) {
      if (op.warnings.length > 0) reasons.push(`${op.operation}: ${op.warnings[0]} (a warning, CONTRACT_STRICT=1)`);
    }
  }
  if (reasons.length > 0) return { ...base, state: 'failed', reasons };
  const { floor } = evidence;
  if (counts.verified < Math.max(1, floor.minimumVerified)) {
    reasons.push(`${counts.verified} operation(s) verified, the floor is ${Math.max(1, floor.minimumVerified)}`);
  }
  const reads = evidence.operations.filter(
    (op) => op.safety === 'read' && !floor.exempt.includes(op.operation) && op.outsideFloor === undefined,
  );
  const unverifiedReads = reads.filter((op) => op.verdict !== 'verified');
  if (floor.reads === 'all') {
    for (const op of unverifiedReads) reasons.push(`${op.operation} not verified: ${op.reason ?? op.verdict}`);
  } else if (reads.length - unverifiedReads.length < floor.reads) {
    reasons.push(`${reads.length - unverifiedReads.length} read(s) verified, the floor is ${floor.reads}`);
  }
  const lookups = evidence.operations.filter(
    (op) => op.safety === 'read' && op.lookup === true && !floor.exempt.includes(op.operation),
  );
  const lookupsWanted = Math.min(floor.minimumLookups ?? 1, lookups.length);
  const lookupsVerified = lookups.filter((op) => op.verdict === 'verified').length;
  if (lookupsVerified < lookupsWanted) {
    reasons.push(
      `${lookupsVerified} lookup(s) verified, the floor is ${lookupsWanted}: no list led to a record that could be looked up`,
    );
  }
  return { ...base, state: reasons.length > 0 ? 'unverified' : 'green', reasons };
}

/**
 * The floor of `service` from CONTRACT_FLOOR_<SERVICE> (see the top of this file); operations it names must be
 * among `operations`, numbers within 0 and the number of operations, else a clear error naming the variable.
 */
export function floorFromEnv(
  service: string,
  operations: readonly string[],
  env: Record<string, string | undefined> = process.env,
): EvidenceFloor {
  const name = `CONTRACT_FLOOR_${service.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  const floor = defaultFloor();
  const text = env[name]?.trim();
  if (!text) return floor;
  const known = new Set(operations);
  const range = { min: 0, max: operations.length, unit: 'operations' };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const setting = /^(reads|min|lookups)\s*=\s*(.*)$/.exec(part);
    if (setting?.[1] === 'reads') {
      floor.reads = setting[2] === 'all' ? 'all' : boundedNumber(`${name} reads=`, setting[2] ?? '', range);
    } else if (setting?.[1] === 'lookups') {
      floor.minimumLookups = boundedNumber(`${name} lookups=`, setting[2] ?? '', range);
    } else if (setting?.[1] === 'min') {
      floor.minimumVerified = Math.max(1, boundedNumber(`${name} min=`, setting[2] ?? '', range));
    } else if (known.has(part)) floor.exempt.push(part);
    else {
      throw new Error(
        `${name} names operations of ${service} (operationIds) and reads=<all|n>, min=<n>, lookups=<n>; "${part}" is none of them`,
      );
    }
  }
  return floor;
}

/** The exit code of a run: 0 green, 1 a contract failure, 3 unverified (no failure, but short of a floor). */
export const EXIT_CODES = { green: 0, failed: 1, unverified: 3 } as const;

export function runExitCode(verdicts: ServiceVerdict[], required: ReadonlySet<string> = new Set()): number {
  if (verdicts.some((v) => v.state === 'failed')) return EXIT_CODES.failed;
  const short = verdicts.some((v) => v.state === 'unverified' || (v.state === 'skipped' && required.has(v.service)));
  if (short || verdicts.every((v) => v.state === 'skipped')) return EXIT_CODES.unverified;
  return EXIT_CODES.green;
}
