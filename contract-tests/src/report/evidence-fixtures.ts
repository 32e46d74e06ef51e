/**
 * Test support: valid `ServiceEvidence` objects as the runner writes them, built from a few lines, and a run
 * folder to write them into, so the reporting tests work whatever runner produced the evidence.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultFloor,
  type Failure,
  type OperationEvidence,
  type OperationVerdict,
  type ServiceEvidence,
} from '../evidence/evidence.ts';

export function operation(
  name: string,
  verdict: OperationVerdict,
  more: Partial<OperationEvidence> = {},
): OperationEvidence {
  const lookup = /^get/.test(name);
  return {
    operation: name,
    method: 'get',
    path: lookup ? `/${name.slice(3).toLowerCase()}s/{id}.json` : `/${name.slice(4).toLowerCase()}.json`,
    safety: 'read',
    verdict,
    failures: [],
    warnings: [],
    requests: verdict === 'not-run' ? 0 : 1,
    records: verdict === 'verified' ? (lookup ? 1 : 3) : 0,
    fieldsAlwaysPresent: [],
    ...(verdict === 'not-run' || verdict === 'inconclusive' ? { reason: `${verdict} for a reason` } : {}),
    ...more,
  };
}

export function failure(message: string, more: Partial<Failure> = {}): Failure {
  return { check: 'baseline', message, ...more };
}

export function serviceEvidence(
  service: string,
  operations: OperationEvidence[],
  more: Partial<ServiceEvidence> = {},
): ServiceEvidence {
  return {
    service,
    target: 'live',
    startedAt: '2026-11-25T03:17:00.000Z',
    seed: '4242',
    floor: defaultFloor(),
    operations,
    ...more,
  };
}

/** A store whose products carry `fields` in every record. */
export function storeNight(productFields: string[], more: Partial<ServiceEvidence> = {}): ServiceEvidence {
  return serviceEvidence(
    'store',
    [
      operation('listProducts', 'verified', { records: 40, requests: 3, fieldsAlwaysPresent: productFields }),
      operation('getProduct', 'verified', { records: 10, requests: 10, fieldsAlwaysPresent: productFields }),
      operation('listOrders', 'verified', { records: 5, fieldsAlwaysPresent: ['order.id', 'order.status'] }),
    ],
    more,
  );
}

/** A temporary target folder holding `evidence` as `evidence-<service>.json`. */
export async function runFolder(evidence: ServiceEvidence[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-apis-report-'));
  for (const e of evidence) await writeFile(join(dir, `evidence-${e.service}.json`), JSON.stringify(e));
  return dir;
}
