/**
 * Every broken behaviour of issue 28's table, run as an operator runs it (`CONTRACT_TARGET=live` with the three
 * service suites), against the conforming stand-ins behind one fault layer each (`broken-stand-ins.ts`): each
 * ends non-zero, failed or unverified, and the evidence says why; the conforming `cursor-end` mode (the documented
 * 404 after the newest order) stays green. The exit code is the one the evidence gives (`runExitCode`), as the
 * `contract` wrapper computes it; a fail also fails a test, so vitest's own exit is non-zero for fails too.
 */

import { type FaultMode, faultRecords, withFault } from '@agent-apis/test-servers/faults/broken-stand-ins';
import { startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import type { StandIn } from '@agent-apis/test-servers/stand-ins/server';
import { startStoreStandIn } from '@agent-apis/test-servers/stand-ins/store';
import { startTrustStandIn } from '@agent-apis/test-servers/stand-ins/trust';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type LiveRun, runContractLive } from '../engine/live-run.ts';
import type { OperationVerdict } from '../evidence/evidence.ts';

const STORE = { login: 'fault-login', authToken: 'fault-token-3e9a' };
const TRUST_KEY = 'sk_fault_key_61b0';
const FILES = {
  directory: 'src/checks/directory.contract.test.ts',
  store: 'src/checks/store.contract.test.ts',
  trust: 'src/checks/trust.contract.test.ts',
} as const;
type Service = keyof typeof FILES;

const running: StandIn[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** The three stand-ins, each behind the `mode` layer when it is in `faulty`; the live run of `services`. */
async function runWith(mode: FaultMode, faulty: Service[], services: Service[], env: Record<string, string> = {}) {
  const layer = async (service: Service, standIn: StandIn) => {
    running.push(standIn);
    if (!faulty.includes(service)) return standIn;
    const faultyStandIn = await withFault(standIn, service, mode);
    running.push(faultyStandIn);
    return faultyStandIn;
  };
  const store = await layer(
    'store',
    await startStoreStandIn({ ...STORE, perSecond: 1000, perMinute: 100_000, records: faultRecords(mode) }),
  );
  const trust = await layer('trust', await startTrustStandIn({ apiKey: TRUST_KEY }));
  const directory = await layer('directory', await startDirectoryStandIn());
  return runContractLive(
    {
      STORE_BASE_URL: store.url,
      STORE_LOGIN: STORE.login,
      STORE_AUTH_TOKEN: STORE.authToken,
      TRUST_BASE_URL: trust.url,
      ENTROPY0_API_KEY: TRUST_KEY,
      DIRECTORY_BASE_URL: directory.url,
      CONTRACT_STORE_RATE_LIMIT: '1000/s,100000/min',
      CONTRACT_SEED: '20261126',
      ...env,
    },
    services.map((s) => FILES[s]),
  );
}

const table: string[] = [];

/** One row of the closing note's table: mode, exit code, per service its state and verdict counts. */
function row(mode: string, run: LiveRun): string {
  const cells = run.verdicts.map((v) => {
    const counts = (Object.entries(v.counts) as [OperationVerdict, number][])
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    return `${v.service} ${v.state} (${counts})`;
  });
  return `| ${mode} | ${run.evidenceExit} | ${cells.join('; ')} |`;
}

afterAll(() => {
  console.log(`| broken behaviour | exit | verdicts |\n| --- | --- | --- |\n${table.join('\n')}`);
});

const failuresOf = (run: LiveRun, service: string) =>
  (run.evidence[service]?.operations ?? []).flatMap((op) =>
    op.failures.map((f) => ({ operation: op.operation, ...f })),
  );

describe('broken live APIs end non-zero, failed or unverified, and the evidence says why', () => {
  it('429 with Retry-After 3600 to everything: unverified (exit 3), nothing verified, the rest not sent', async () => {
    const run = await runWith('rate-limited', ['store', 'trust', 'directory'], ['store', 'trust', 'directory']);
    table.push(row('429 Retry-After 3600 to everything', run));
    expect(run.evidenceExit).toBe(3);
    for (const verdict of run.verdicts) {
      expect(verdict.state).toBe('unverified');
      expect(verdict.verified).toBe(0);
    }
    const store = run.evidence.store?.operations ?? [];
    expect(store.some((op) => op.verdict === 'inconclusive' && /429/.test(op.reason ?? ''))).toBe(true);
    expect(store.some((op) => op.verdict === 'not-run' && /Retry-After|429/.test(op.reason ?? ''))).toBe(true);
    // Still unverified, never passed, with CONTRACT_STRICT=1.
    const strict = await runWith('rate-limited', ['trust'], ['trust'], { CONTRACT_STRICT: '1' });
    expect(strict.evidenceExit).toBe(3);
  }, 240_000);

  it('401 to every request, credentials included: failed (exit 1), one fail per operation, naming the 401', async () => {
    const run = await runWith('unauthorized', ['store', 'trust', 'directory'], ['store', 'trust', 'directory']);
    table.push(row('401 to everything', run));
    expect(run.evidenceExit).toBe(1);
    expect(run.code).not.toBe(0);
    for (const verdict of run.verdicts) expect(verdict.state).toBe('failed');
    const listProducts = run.evidence.store?.operations.find((op) => op.operation === 'listProducts');
    expect(listProducts?.failures).toHaveLength(1);
    expect(listProducts?.failures[0]?.message).toMatch(/refused the run's credentials \(401/);
    expect(listProducts?.failures[0]?.reproduction).toMatch(/^curl -sS -X GET "\$STORE_BASE_URL\/products\.json" -u /);
  }, 240_000);

  it('a 403 HTML challenge page to everything: failed (exit 1), the HTML content type named', async () => {
    const run = await runWith('challenge', ['store', 'trust', 'directory'], ['store', 'trust', 'directory']);
    table.push(row('403 HTML challenge to everything', run));
    expect(run.evidenceExit).toBe(1);
    for (const verdict of run.verdicts) expect(verdict.state).toBe('failed');
    const messages = failuresOf(run, 'directory').map((f) => f.message);
    expect(messages.join('\n')).toMatch(
      /content type text\/html \(an HTML page\), where the spec documents application\/json/,
    );
  }, 240_000);

  it('GET /products.json, /api/mcp and POST /v1/decide removed (404): each service failed (exit 1)', async () => {
    const run = await runWith('removed', ['store', 'trust', 'directory'], ['store', 'trust', 'directory']);
    table.push(row('endpoints removed (404)', run));
    expect(run.evidenceExit).toBe(1);
    const gone = (service: string, operation: string) =>
      run.evidence[service]?.operations.find((op) => op.operation === operation);
    for (const [service, operation] of [
      ['store', 'listProducts'],
      ['directory', 'listMcpServers'],
      ['trust', 'decide'],
    ] as const) {
      expect(gone(service, operation)?.verdict, `${service} ${operation}`).toBe('failed');
      expect(gone(service, operation)?.failures[0]?.message).toMatch(
        /got 404.*a collection path the spec documents is gone/,
      );
    }
    // The lookups that take their ids from the removed list are not run (their source failed), never failed twice.
    expect(gone('store', 'getProduct')).toMatchObject({
      verdict: 'not-run',
      reason: expect.stringMatching(/its source listProducts failed/),
    });
  }, 240_000);

  it('every lookup answers the same record: failed (exit 1), naming the id asked for and the field answered', async () => {
    const run = await runWith('same-record', ['store', 'directory'], ['store', 'directory']);
    table.push(row('the same record for every lookup', run));
    expect(run.evidenceExit).toBe(1);
    const getProduct = run.evidence.store?.operations.find((op) => op.operation === 'getProduct');
    expect(getProduct?.verdict).toBe('failed');
    expect(getProduct?.failures[0]).toMatchObject({
      check: 'identity',
      record: expect.stringMatching(/^id=\d+$/),
      message: expect.stringMatching(/asked for id=\d+, the answer is another record \(product\.id=\d+\)/),
      reproduction: expect.stringMatching(/^curl .*"\$STORE_BASE_URL\/products\/\d+\.json"/),
    });
    expect(run.verdicts.find((v) => v.service === 'directory')?.state).toBe('failed');
  }, 240_000);

  it('a required field dropped on page 3 of a list: failed (exit 1), the page and the field named', async () => {
    const run = await runWith('dropped-field', ['store'], ['store']);
    table.push(row('a required field dropped on page 3', run));
    expect(run.evidenceExit).toBe(1);
    const listProducts = run.evidence.store?.operations.find((op) => op.operation === 'listProducts');
    expect(listProducts?.verdict).toBe('failed');
    expect(listProducts?.failures[0]?.message).toMatch(/page 3.*must have required property 'id'/);
    expect(run.output).toMatch(/store ▸ live run of \d+ reads .*seed 20261126 \(replay with CONTRACT_SEED=20261126\)/);
  }, 240_000);

  it('every list answers []: unverified (exit 3), no lookup verified', async () => {
    const run = await runWith('empty-lists', ['store', 'directory'], ['store', 'directory']);
    table.push(row('every list []', run));
    expect(run.evidenceExit).toBe(3);
    for (const verdict of run.verdicts) {
      expect(verdict.state).toBe('unverified');
      expect(verdict.reasons.join('\n')).toMatch(/0 lookup\(s\) verified/);
    }
  }, 240_000);

  it("the month's trust quota spent: unverified (exit 3), 0 operations verified, also with CONTRACT_STRICT=1", async () => {
    for (const env of [{}, { CONTRACT_STRICT: '1' }] as Record<string, string>[]) {
      const run = await runWith('quota-spent', ['trust'], ['trust'], env);
      if (!('CONTRACT_STRICT' in env)) table.push(row('trust quota spent', run));
      expect(run.evidenceExit).toBe(3);
      expect(run.verdicts[0]).toMatchObject({ service: 'trust', state: 'unverified', verified: 0 });
    }
  }, 240_000);

  it('a hung POST /v1/decide fails once; requests never sent are not run, never failed', async () => {
    const run = await runWith('hung', ['trust'], ['trust'], { CONTRACT_TIMEOUT: '5' });
    table.push(row('a hung endpoint (CONTRACT_TIMEOUT=5)', run));
    expect(run.evidenceExit).toBe(1);
    const failures = failuresOf(run, 'trust');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ operation: 'decide', check: 'answer_within_timeout' });
    expect(failures[0]?.message).toMatch(/no answer within 5 s \(CONTRACT_TIMEOUT\)/);
  }, 240_000);
  it('out-of-range page answered 500: the vendor-fact check page_bounds fails its operation in the evidence', async () => {
    const run = await runWith('bounds-500', ['store'], ['store']);
    table.push(row('500 to a page below its minimum', run));
    expect(run.evidenceExit).toBe(1);
    const pageBounds = failuresOf(run, 'store').filter((f) => f.check === 'page_bounds');
    expect(pageBounds.map((f) => f.operation)).toContain('listProducts');
    expect(pageBounds[0]?.message).toMatch(/^query\.page=0, below its minimum 1: answered 500$/);
    expect(run.evidence.store?.operations.find((op) => op.operation === 'listProducts')?.verdict).toBe('failed');
  }, 240_000);
});

describe('conforming behaviour the contract allows stays green', () => {
  it('the documented 404 to /orders/after/{newest id}: exit 0, listOrdersAfter not failed', async () => {
    const run = await runWith('cursor-end', ['store'], ['store']);
    table.push(row('conforming: 404 after the newest order', run));
    expect(run.code).toBe(0);
    expect(run.evidenceExit).toBe(0);
    const after = run.evidence.store?.operations.find((op) => op.operation === 'listOrdersAfter');
    expect(after?.verdict).not.toBe('failed');
    expect(run.output).toMatch(/store ▸ verified \d+ of \d+ operations: green/);
  }, 240_000);
});
