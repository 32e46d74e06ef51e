/**
 * The evidence of one service's live run, per operation (`evidence.ts`): what each named check found, each defect
 * once, and the operation's verdict from its baseline. Written as `evidence-<service>.json` next to the coverage
 * file. One defect, one fail: findings are kept by a key that leaves out which record or which input set showed
 * them (a 401 to ten lookups, or to the required and the all-inputs call, is one failure).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvidenceFloor, Failure, OperationEvidence, ServiceEvidence } from './evidence.ts';
import { FieldPresence } from './fields.ts';

export type Severity = 'fail' | 'warning' | 'inconclusive';

export interface Finding extends Failure {
  severity: Severity;
  /** What makes two findings the same defect (defaults to check + message). */
  key?: string;
}

/** How the operation's baseline ended for one record (or for its one request). */
export type BaselineEnd = 'verified' | 'failed' | 'warned' | 'inconclusive' | 'not-sent' | 'documented-end';

interface Entry {
  operation: string;
  method: string;
  path: string;
  safety: string;
  lookup?: boolean;
  failures: Finding[];
  warnings: string[];
  inconclusive: string[];
  keys: Set<string>;
  requests: number;
  baseline: Record<BaselineEnd, number>;
  notRun?: string;
  outsideFloor?: string;
  documentedEnd?: string;
  fields: FieldPresence;
}

export class EvidenceLedger {
  readonly #entries = new Map<string, Entry>();
  readonly #evidence: Omit<ServiceEvidence, 'operations'>;

  constructor(
    evidence: Omit<ServiceEvidence, 'operations'>,
    operations: { id: string; method: string; path: string; safety: string; lookup?: boolean }[],
  ) {
    this.#evidence = evidence;
    for (const op of operations) {
      this.#entries.set(op.id, {
        operation: op.id,
        method: op.method,
        path: op.path,
        safety: op.safety,
        ...(op.lookup ? { lookup: true } : {}),
        failures: [],
        warnings: [],
        inconclusive: [],
        keys: new Set(),
        requests: 0,
        baseline: { verified: 0, failed: 0, warned: 0, inconclusive: 0, 'not-sent': 0, 'documented-end': 0 },
        fields: new FieldPresence(),
      });
    }
  }

  #entry(operation: string): Entry {
    const entry = this.#entries.get(operation);
    if (!entry) throw new Error(`evidence for an operation not in the spec: ${operation}`);
    return entry;
  }

  /** Records a finding once per defect; returns false when the same defect was already recorded. */
  add(operation: string, finding: Finding): boolean {
    const entry = this.#entry(operation);
    const key = `${finding.severity} ${finding.key ?? `${finding.check} ${finding.message}`}`;
    if (entry.keys.has(key)) return false;
    entry.keys.add(key);
    const { severity, key: _key, ...failure } = finding;
    if (severity === 'fail') entry.failures.push(failure as Finding);
    else if (severity === 'warning') entry.warnings.push(`${finding.check}: ${finding.message}`);
    else entry.inconclusive.push(`${finding.check}: ${finding.message}`);
    return true;
  }

  sent(operation: string): void {
    this.#entry(operation).requests++;
  }

  baseline(operation: string, end: BaselineEnd, note?: string): void {
    const entry = this.#entry(operation);
    entry.baseline[end]++;
    if (end === 'documented-end' && note) entry.documentedEnd ??= note;
  }

  /** A record an answer of `operation` carried and that validated. */
  record(operation: string, record: unknown): void {
    this.#entry(operation).fields.add(record);
  }

  /** The operation was not sent, with the reason; `outsideFloor` when no run of this configuration could send it. */
  notRun(operation: string, reason: string, outsideFloor?: string): void {
    const entry = this.#entry(operation);
    entry.notRun ??= reason;
    if (outsideFloor) entry.outsideFloor ??= outsideFloor;
  }

  /** The operation does not count for the evidence floor, and why (a guess, the newest record of a cursor). */
  outsideFloor(operation: string, why: string): void {
    this.#entry(operation).outsideFloor ??= why;
  }

  failures(operation: string): Finding[] {
    return this.#entry(operation).failures;
  }

  warnings(operation: string): string[] {
    return this.#entry(operation).warnings;
  }

  /** One operation's evidence as it stands. */
  operation(operation: string): OperationEvidence {
    const entry = this.#entry(operation);
    const b = entry.baseline;
    let verdict: OperationEvidence['verdict'];
    let reason: string | undefined;
    if (entry.failures.length > 0) verdict = 'failed';
    else if (b.verified > 0) verdict = 'verified';
    else if (b.warned > 0) {
      verdict = 'warned';
      reason = entry.warnings[0];
    } else if (b.inconclusive > 0 || b['documented-end'] > 0) {
      verdict = 'inconclusive';
      reason = entry.inconclusive[0] ?? entry.documentedEnd;
    } else {
      verdict = 'not-run';
      reason = entry.notRun ?? (b['not-sent'] > 0 ? 'its requests were not sent' : 'not run');
    }
    // A documented end that never met a verified answer stays outside the floor (nothing after the newest record).
    if (verdict === 'inconclusive' && b.inconclusive === 0 && entry.documentedEnd) entry.outsideFloor ??= reason;
    return {
      operation: entry.operation,
      method: entry.method,
      path: entry.path,
      safety: entry.safety,
      ...(entry.lookup ? { lookup: true } : {}),
      verdict,
      ...(reason ? { reason } : {}),
      ...(entry.outsideFloor && verdict !== 'verified' && verdict !== 'failed'
        ? { outsideFloor: entry.outsideFloor }
        : {}),
      failures: entry.failures,
      warnings: entry.warnings,
      requests: entry.requests,
      records: entry.fields.records,
      fieldsAlwaysPresent: entry.fields.always(),
    };
  }

  evidence(budget?: ServiceEvidence['budget']): ServiceEvidence {
    return {
      ...this.#evidence,
      operations: [...this.#entries.keys()].map((id) => this.operation(id)),
      ...(budget ? { budget: { ...budget } } : {}),
    };
  }

  async write(dir: string, budget?: ServiceEvidence['budget']): Promise<ServiceEvidence> {
    const evidence = this.evidence(budget);
    await writeEvidence(dir, evidence);
    return evidence;
  }

  get floor(): EvidenceFloor {
    return this.#evidence.floor;
  }
}

/** Writes `evidence-<service>.json` into `dir` (the coverage folder of the target). */
export async function writeEvidence(dir: string, evidence: ServiceEvidence): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `evidence-${evidence.service}.json`), `${JSON.stringify(evidence, null, 2)}\n`);
}
