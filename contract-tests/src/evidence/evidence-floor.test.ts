import { describe, expect, it } from 'vitest';
import {
  defaultFloor,
  floorFromEnv,
  judgeService,
  type OperationEvidence,
  runExitCode,
  type ServiceEvidence,
} from './evidence.ts';

const op = (operation: string, verdict: OperationEvidence['verdict'], extra: Partial<OperationEvidence> = {}) =>
  ({
    operation,
    method: 'GET',
    path: `/${operation}`,
    safety: 'read',
    verdict,
    failures: verdict === 'failed' ? [{ check: 'baseline', message: 'got 401' }] : [],
    warnings: [],
    requests: 1,
    records: 0,
    fieldsAlwaysPresent: [],
    ...extra,
  }) satisfies OperationEvidence;

const service = (operations: OperationEvidence[], extra: Partial<ServiceEvidence> = {}): ServiceEvidence => ({
  service: 'store',
  target: 'live',
  startedAt: '2026-11-26T04:00:00.000Z',
  seed: '1',
  floor: defaultFloor(),
  operations,
  ...extra,
});

describe('the evidence floor', () => {
  it('is green only with every read that could run verified and one listed record looked up', () => {
    const green = service([op('listProducts', 'verified'), op('getProduct', 'verified', { lookup: true })]);
    expect(judgeService(green)).toMatchObject({ state: 'green', verified: 2, total: 2 });
    // A read not verified (a 429 past the budget) leaves the service unverified: never a pass.
    const limited = service([op('listProducts', 'verified'), op('getOrder', 'inconclusive', { lookup: true })]);
    expect(judgeService(limited).state).toBe('unverified');
    expect(runExitCode([judgeService(limited)])).toBe(3);
    // Nothing verified is never green.
    expect(judgeService(service([op('decide', 'inconclusive', { outsideFloor: 'a guess' })])).state).toBe('unverified');
  });

  it('leaves out reads the run could not send (no such record, not configured, a guess), but wants one lookup', () => {
    const noHooks = service([
      op('listProducts', 'verified'),
      op('getProduct', 'verified', { lookup: true }),
      op('getHook', 'not-run', { lookup: true, outsideFloor: 'no hook in the live account' }),
    ]);
    expect(judgeService(noHooks).state).toBe('green');
    const empty = service([
      op('listProducts', 'verified'),
      op('getProduct', 'not-run', { lookup: true, outsideFloor: 'no product in the live account' }),
    ]);
    expect(judgeService(empty)).toMatchObject({ state: 'unverified', reasons: [expect.stringMatching(/0 lookup/)] });
    expect(judgeService({ ...empty, floor: { ...defaultFloor(), minimumLookups: 0 } }).state).toBe('green');
  });

  it('fails on any fail, and on a warning with CONTRACT_STRICT=1', () => {
    const warned = [op('listProducts', 'verified', { warnings: ['negative_data_rejection: accepted limit=101'] })];
    expect(judgeService(service(warned)).state).toBe('green');
    expect(judgeService(service(warned, { strict: true })).state).toBe('failed');
    expect(judgeService(service([op('listProducts', 'failed')])).state).toBe('failed');
  });

  it('reads CONTRACT_FLOOR_<SERVICE>: operations to leave out, reads=, min=, lookups=, refusing anything else', () => {
    const operations = ['listOrders', 'getOrder', 'listOrdersAfter'];
    expect(floorFromEnv('store', operations, {})).toEqual(defaultFloor());
    expect(
      floorFromEnv('store', operations, {
        CONTRACT_FLOOR_STORE: 'getOrder, listOrdersAfter, reads=1, min=2, lookups=0',
      }),
    ).toEqual({ reads: 1, minimumVerified: 2, exempt: ['getOrder', 'listOrdersAfter'], minimumLookups: 0 });
    expect(() => floorFromEnv('store', operations, { CONTRACT_FLOOR_STORE: 'getOrdr' })).toThrow(
      /CONTRACT_FLOOR_STORE names operations of store .* "getOrdr" is none of them/,
    );
    expect(() => floorFromEnv('store', operations, { CONTRACT_FLOOR_STORE: 'reads=1e6' })).toThrow(
      /CONTRACT_FLOOR_STORE reads= must be a whole number from 0 to 3 operations, got "1e6"/,
    );
    // An exempt operation does not hold the service back.
    const evidence = service([op('listOrders', 'verified'), op('getOrder', 'not-run', { lookup: true })], {
      floor: floorFromEnv('store', operations, { CONTRACT_FLOOR_STORE: 'getOrder' }),
    });
    expect(judgeService(evidence).state).toBe('green');
  });
});
