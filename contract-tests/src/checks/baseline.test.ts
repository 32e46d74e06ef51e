/**
 * The baseline rules, one answer at a time, on the store's final spec and its real client profile: what each
 * answer proves (fail, warning, inconclusive, documented end, not sent) and what the evidence keeps of it.
 */
import * as functions from '@agent-apis/store';
import { createStoreClient } from '@agent-apis/store';
import { validators } from '@agent-apis/store/validators';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ContractOperation, type ContractSpec, loadContractSpec } from '../contract-spec/spec.ts';
import { type CallOutcome, LiveRun } from '../engine/run.ts';
import { SpecSchemaValidator } from '../engine/schema-validator.ts';
import { CoverageRecorder } from '../evidence/coverage.ts';
import type { Basis } from '../evidence/verdicts.ts';
import { examineAnswer } from './baseline.ts';

let spec: ContractSpec;
beforeAll(async () => {
  spec = await loadContractSpec('store');
});

function newRun(): LiveRun {
  return new LiveRun({
    profile: {
      service: 'store',
      functions,
      createClient: (target, fetch) =>
        createStoreClient({ baseUrl: target.baseUrl, ...target.credentials, fetch, rateLimit: false }),
      validators,
      budget: {},
      reproduction: { baseUrlEnv: 'STORE_BASE_URL', auth: ['-u', '"$STORE_LOGIN:$STORE_AUTH_TOKEN"'] },
    },
    spec,
    target: {
      service: 'store',
      baseUrl: 'https://store.example/k_9f8e7d6c5b4a/v1',
      credentials: { login: 'l', authToken: 't' },
    },
    schemas: new SpecSchemaValidator(spec.document),
    recorder: new CoverageRecorder(
      'store',
      'live',
      spec.operations.map((op) => op.id),
      {},
    ),
    env: { CONTRACT_SEED: '1' },
  });
}

const op = (id: string) => spec.operations.find((o) => o.id === id) as ContractOperation;

function answer(
  status: number,
  body: unknown,
  path: string,
  contentType = 'application/json; charset=utf-8',
): CallOutcome {
  return {
    ...(status < 300 ? { result: body } : { error: new Error(`status ${status}`) }),
    seen: {
      status,
      headers: new Headers({
        'content-type': contentType,
        'Jumpseller-PerSecondRateLimit-Limit': '20',
        'Jumpseller-PerSecondRateLimit-Remaining': '19',
        'Jumpseller-PerMinuteRateLimit-Limit': '800',
        'Jumpseller-PerMinuteRateLimit-Remaining': '799',
      }),
      body,
      method: 'GET',
      url: `https://store.example/k_9f8e7d6c5b4a/v1${path}`,
    },
    dispatch: { sent: true, answered: true },
  };
}

const examine = (run: LiveRun, id: string, outcome: CallOutcome, basis: Basis = {}, identity = [] as never[]) =>
  examineAnswer(
    run,
    op(id),
    outcome,
    basis.record ? `required, ${basis.record}` : 'required',
    basis,
    'baseline',
    identity,
  );

describe('the baseline check', () => {
  it('fails a 401 to a request with the run credentials, with the shown URL and a reproduction', () => {
    const run = newRun();
    const result = examine(run, 'listProducts', answer(401, { message: 'Unauthorized' }, '/products.json'));
    expect(result.end).toBe('failed');
    expect(run.ledger.operation('listProducts')).toMatchObject({
      verdict: 'failed',
      failures: [
        {
          check: 'positive_data_acceptance',
          message: expect.stringMatching(/got 401: refused the run's credentials/),
          url: 'https://store.example/***/v1/products.json',
          reproduction: 'curl -sS -X GET "$STORE_BASE_URL/products.json" -u "$STORE_LOGIN:$STORE_AUTH_TOKEN"',
        },
      ],
    });
    // The key in the base URL's path never reaches the evidence.
    expect(JSON.stringify(run.ledger.evidence())).not.toContain('k_9f8e7d6c5b4a');
  });

  it('fails an HTML page where JSON is promised once, naming its content type', () => {
    const run = newRun();
    const html = '<!DOCTYPE html><html><body>Checking your browser</body></html>';
    examine(run, 'listProducts', answer(403, html, '/products.json', 'text/html'));
    const { failures } = run.ledger.operation('listProducts');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toMatch(
      /403 answered with content type text\/html \(an HTML page\), where the spec documents application\/json/,
    );
  });

  it('fails a 404 on a collection path and on a listed record; a guess is inconclusive; a cursor end is documented', () => {
    const run = newRun();
    expect(examine(run, 'listProducts', answer(404, { message: 'Not Found' }, '/products.json')).end).toBe('failed');
    const listed = { listed: 'listProducts entry 2', record: 'id=1103' };
    expect(examine(run, 'getProduct', answer(404, { message: 'Not Found' }, '/products/1103.json'), listed).end).toBe(
      'failed',
    );
    expect(run.ledger.operation('getProduct').failures[0]).toMatchObject({ record: 'id=1103' });
    const guess = { guess: 'its id is a guess', record: 'id=1' };
    expect(examine(run, 'getCart', answer(404, { message: 'Not Found' }, '/carts/1.json'), guess).end).toBe(
      'inconclusive',
    );
    const cursor = { cursor: 'the vendor documents 404', record: 'id=9' };
    expect(
      examine(run, 'listOrdersAfter', answer(404, { message: 'Not Found' }, '/orders/after/9.json'), cursor).end,
    ).toBe('documented-end');
    expect(run.ledger.operation('listOrdersAfter').failures).toEqual([]);
  });

  it('warns on a 4xx to a request the suite constructed, and is inconclusive on a 429', () => {
    const run = newRun();
    const constructed = { constructed: 'optional inputs the suite chose' };
    expect(
      examine(run, 'listProducts', answer(400, { message: 'bad' }, '/products.json?limit=50'), constructed).end,
    ).toBe('warned');
    expect(examine(run, 'countProducts', answer(429, { message: 'slow down' }, '/products/count.json')).end).toBe(
      'inconclusive',
    );
    expect(run.ledger.operation('countProducts')).toMatchObject({ verdict: 'inconclusive', failures: [] });
  });

  it('verifies a documented answer, keeps the fields every record carried, and fails another record than asked for', () => {
    const run = newRun();
    const product = (id: number) => ({ product: { id, name: `p${id}`, price: 3.5 } });
    const listed = { listed: 'listProducts entry 0', record: 'id=1101' };
    const identity = [{ parameter: 'id', pointer: '/product/id', value: 1101 }] as never[];
    expect(examine(run, 'getProduct', answer(200, product(1101), '/products/1101.json'), listed, identity).end).toBe(
      'verified',
    );
    expect(run.ledger.operation('getProduct')).toMatchObject({
      verdict: 'verified',
      records: 1,
      fieldsAlwaysPresent: ['product', 'product.id', 'product.name', 'product.price'],
    });
    const other = { listed: 'listProducts entry 2', record: 'id=1103' };
    const asked = [{ parameter: 'id', pointer: '/product/id', value: 1103 }] as never[];
    expect(examine(run, 'getProduct', answer(200, product(1101), '/products/1103.json'), other, asked).end).toBe(
      'failed',
    );
    expect(run.ledger.operation('getProduct').failures[0]).toMatchObject({
      check: 'identity',
      record: 'id=1103',
      message: 'required, id=1103: asked for id=1103, the answer is another record (product.id=1101)',
    });
  });

  it('fails a hung request once; a request never sent is not a fail', () => {
    const run = newRun();
    const hung: CallOutcome = { error: new Error('timed out'), dispatch: { sent: true, timedOut: true } };
    expect(examine(run, 'listProducts', hung).end).toBe('failed');
    expect(examine(run, 'listProducts', hung).end).toBe('failed');
    expect(run.ledger.operation('listProducts').failures).toHaveLength(1);
    const notSent: CallOutcome = { error: new Error('x'), dispatch: {}, notSent: 'not sent: the run stopped' };
    expect(examine(run, 'countProducts', notSent).end).toBe('not-sent');
    expect(run.ledger.operation('countProducts').failures).toEqual([]);
  });
});
