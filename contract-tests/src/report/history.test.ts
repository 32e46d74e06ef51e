import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operation, runFolder, serviceEvidence, storeNight } from './evidence-fixtures.ts';
import { appendNight, compareNights, nightFrom, nightsKept, readNights } from './history.ts';
import { writeRunReports } from './run-report.ts';
import { judgeRun } from './states.ts';

const PRODUCT = ['product.id', 'product.name', 'product.price', 'product.variants[].sku'];
const WITHOUT_PRICE = PRODUCT.filter((f) => f !== 'product.price');

async function twoNights(env: Record<string, string> = {}) {
  const history = await mkdtemp(join(tmpdir(), 'agent-apis-history-'));
  const first = await writeRunReports(
    await runFolder([storeNight(PRODUCT)]),
    'live',
    { CONTRACT_HISTORY: history, ...env },
    new Date('2026-11-25T03:40:00Z'),
  );
  const secondDir = await runFolder([storeNight(WITHOUT_PRICE)]);
  const second = await writeRunReports(
    secondDir,
    'live',
    { CONTRACT_HISTORY: history, ...env },
    new Date('2026-11-26T03:40:00Z'),
  );
  return { history, first, second, secondDir };
}

describe('tonight against last night', () => {
  it('names product.price as gone when the second night lacks it in products (a warning, the run stays green)', async () => {
    const { first, second, secondDir } = await twoNights();
    expect(first.changes).toEqual([]);
    expect(second.changes).toEqual([
      expect.objectContaining({ kind: 'field-gone', service: 'store', field: 'product.price' }),
    ]);
    expect(second.changes[0]?.operations).toEqual(['listProducts', 'getProduct']);
    expect(second.changes[0]?.message).toContain('product.price');
    expect(second.exitCode).toBe(0);
    // Every report of the run starts with the change.
    const html = await readFile(join(secondDir, 'report.html'), 'utf8');
    expect(html.indexOf('product.price')).toBeGreaterThan(-1);
    expect(html.indexOf('product.price')).toBeLessThan(html.indexOf('id="services"'));
    const run = JSON.parse(await readFile(join(secondDir, 'run.json'), 'utf8'));
    expect(run.changes[0].field).toBe('product.price');
  });

  it('makes the field gone red with CONTRACT_STRICT=1', async () => {
    const { second } = await twoNights({ CONTRACT_STRICT: '1' });
    expect(second.exitCode).toBe(1);
    const store = second.services.find((s) => s.service === 'store');
    expect(store?.state).toBe('failed');
    expect(store?.reasons[0]).toContain('product.price');
  });

  it('reports an operation verified last night and not tonight, and a list that had records and is empty', () => {
    const last = nightFrom('live', [storeNight(PRODUCT)], judgeRun('live', [storeNight(PRODUCT)], []).services);
    const tonightEvidence = serviceEvidence('store', [
      operation('listProducts', 'verified', { records: 0, fieldsAlwaysPresent: [] }),
      operation('getProduct', 'not-run', { reason: 'no product in the live account' }),
      operation('listOrders', 'failed'),
    ]);
    const tonight = nightFrom('live', [tonightEvidence], judgeRun('live', [tonightEvidence], []).services);
    const changes = compareNights(last, tonight);
    expect(changes.map((c) => `${c.kind} ${c.operations.join(',')}`)).toEqual([
      'no-longer-verified getProduct',
      'no-longer-verified listOrders',
      'no-records-any-more listProducts',
    ]);
    // Fields are compared only where tonight's answers held records: an empty list is one change, not four.
    expect(changes.some((c) => c.kind === 'field-gone')).toBe(false);
  });

  it('reports a service run last night and not tonight', () => {
    const last = nightFrom('live', [storeNight(PRODUCT)], judgeRun('live', [storeNight(PRODUCT)], []).services);
    const skipped = serviceEvidence('store', [], { skipped: 'not configured' });
    const tonight = nightFrom('live', [skipped], judgeRun('live', [skipped], []).services);
    expect(compareNights(last, tonight)).toEqual([
      expect.objectContaining({ kind: 'not-run-any-more', service: 'store', operations: expect.any(Array) }),
    ]);
  });

  it('keeps the last N nights of each target, and compares with the newest of the same target', async () => {
    const history = await mkdtemp(join(tmpdir(), 'agent-apis-history-'));
    const states = judgeRun('live', [storeNight(PRODUCT)], []).services;
    for (let day = 1; day <= 5; day++) {
      const night = nightFrom('live', [storeNight(PRODUCT)], states, new Date(`2026-11-0${day}T03:00:00Z`));
      await appendNight(history, night, 3);
    }
    await appendNight(history, { version: 1, target: 'mock', at: '2026-11-09T00:00:00.000Z', services: new Map() }, 3);
    expect((await readdir(join(history, 'live'))).length).toBe(3);
    const { nights } = await readNights(history, 'live', 3);
    expect(nights.map((n) => n.at.slice(0, 10))).toEqual(['2026-11-03', '2026-11-04', '2026-11-05']);
  });

  it('leaves out a history file that is not a night, and re-caps what it reads', async () => {
    const history = await mkdtemp(join(tmpdir(), 'agent-apis-history-'));
    await mkdir(join(history, 'live'));
    await writeFile(join(history, 'live', '2026-11-01T00-00-00-000Z-1.json'), '{not json');
    const hostile = {
      version: 1,
      target: 'live',
      at: '2026-11-02T00:00:00.000Z',
      services: {
        store: {
          state: 'green',
          operations: {
            listProducts: { verdict: 'verified', records: -5, fields: ['x'.repeat(10_000), 7 as unknown as string] },
            bogus: { verdict: 'passed' as 'verified', records: 1, fields: [] },
          },
        },
      },
    };
    await writeFile(join(history, 'live', '2026-11-02T00-00-00-000Z-1.json'), JSON.stringify(hostile));
    const { nights, notes } = await readNights(history, 'live');
    expect(notes).toEqual(['2026-11-01T00-00-00-000Z-1.json: not a history entry of the live target, left out']);
    const ops = nights[0]?.services.get('store')?.operations ?? new Map();
    expect([...ops.keys()]).toEqual(['listProducts']);
    expect(ops.get('listProducts')?.records).toBe(0);
    expect(ops.get('listProducts')?.fields.map((f: string) => f.length)).toEqual([300]);
  });
});

describe('the history reads its CONTRACT_* number through settings.ts', () => {
  it('reads CONTRACT_HISTORY_NIGHTS within 2–1000 like every other number, refusing what the history used to guess', () => {
    expect(nightsKept({})).toBe(30);
    expect(nightsKept({ CONTRACT_HISTORY_NIGHTS: '7' })).toBe(7);
    for (const text of ['1', '1e3', '5000', 'thirty']) {
      expect(() => nightsKept({ CONTRACT_HISTORY_NIGHTS: text }), text).toThrow(
        `CONTRACT_HISTORY_NIGHTS must be a whole number from 2 to 1000 nights, got "${text}"`,
      );
    }
  });
});
