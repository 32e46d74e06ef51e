/**
 * Files other jobs wrote are data (a history restored from a cache, a reports folder from an artifact): one test
 * per finding of the probe round. Each failed before the change it guards.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearCoverage } from '../evidence/coverage.ts';
import { failure, operation, runFolder, serviceEvidence, storeNight } from './evidence-fixtures.ts';
import { readNights } from './history.ts';
import { writeRunReports } from './run-report.ts';
import { maskingFrom, maskText } from './text.ts';

const NIGHT_FILE = '2026-11-20T03-00-00-000Z-1.json';
const night = (services: Record<string, unknown>) =>
  JSON.stringify({ version: 1, target: 'live', at: '2026-11-20T03:00:00.000Z', services });
const verifiedStore = {
  store: { state: 'green', operations: { listProducts: { verdict: 'verified', records: 3, fields: [] } } },
};

async function historyWith(file: string, make: (path: string) => Promise<void>): Promise<string> {
  const history = await mkdtemp(join(tmpdir(), 'agent-apis-history-'));
  await mkdir(join(history, 'live'));
  await make(join(history, 'live', file));
  return history;
}

describe('history entries are read only from regular files', () => {
  it('a symbolic link is left out with a note, even to a valid night (and so never to /dev/zero)', async () => {
    const elsewhere = join(await mkdtemp(join(tmpdir(), 'agent-apis-elsewhere-')), 'night.json');
    await writeFile(elsewhere, night(verifiedStore));
    const history = await historyWith(NIGHT_FILE, (path) => symlink(elsewhere, path));
    const { nights, notes } = await readNights(history, 'live');
    expect(nights).toEqual([]);
    expect(notes).toEqual([`${NIGHT_FILE}: a symbolic link, left out`]);
    const zero = await historyWith(NIGHT_FILE, (path) => symlink('/dev/zero', path));
    expect((await readNights(zero, 'live')).notes).toEqual([`${NIGHT_FILE}: a symbolic link, left out`]);
  });

  it('a FIFO is left out without blocking the run', async () => {
    const history = await historyWith(NIGHT_FILE, async (path) => {
      execFileSync('mkfifo', [path]);
    });
    const { nights, notes } = await readNights(history, 'live');
    expect(nights).toEqual([]);
    expect(notes).toEqual([`${NIGHT_FILE}: not a regular file, left out`]);
  }, 10_000);

  it('a regular file over the cap is left out, read no further than the cap', async () => {
    const history = await historyWith(NIGHT_FILE, (path) => writeFile(path, ' '.repeat((8 << 20) + 1)));
    expect((await readNights(history, 'live')).notes).toEqual([
      `${NIGHT_FILE}: larger than ${8 << 20} bytes, left out`,
    ]);
  });
});

describe('service and operation names are data', () => {
  it('a night naming services and operations constructor, toString, hasOwnProperty, __proto__: report written', async () => {
    const names = ['constructor', 'toString', 'hasOwnProperty', '__proto__'];
    const operations = Object.fromEntries(names.map((n) => [n, { verdict: 'verified', records: 2, fields: ['a.b'] }]));
    // Written as another job would write it: `__proto__` as an own key of the JSON text.
    const services = `{${names.map((n) => `"${n}":{"state":"green","operations":${JSON.stringify(operations)}}`).join(',')}}`;
    const history = await historyWith(NIGHT_FILE, (path) =>
      writeFile(path, `{"version":1,"target":"live","at":"2026-11-20T03:00:00.000Z","services":${services}}`),
    );
    const { nights } = await readNights(history, 'live');
    expect([...(nights[0]?.services.keys() ?? [])]).toEqual(names);
    const tonight = serviceEvidence('constructor', [
      operation('toString', 'verified'),
      operation('__proto__', 'failed'),
    ]);
    const dir = await runFolder([tonight]);
    const run = await writeRunReports(dir, 'live', { CONTRACT_HISTORY: history }, new Date('2026-11-21T03:00:00Z'));
    expect(run.changes.map((c) => c.message)).toEqual(
      expect.arrayContaining([
        'constructor __proto__: verified last night, failed tonight',
        'toString: 4 operation(s) verified last night, not run tonight',
      ]),
    );
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain('data-service="constructor"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('a reports folder that is a symbolic link is refused', () => {
  it('clearing the live folder never deletes through a link', async () => {
    const target = await mkdtemp(join(tmpdir(), 'agent-apis-not-ours-'));
    await writeFile(join(target, 'coverage-store.json'), '{"mine":true}');
    const reports = await mkdtemp(join(tmpdir(), 'agent-apis-reports-'));
    await symlink(target, join(reports, 'live'));
    await expect(clearCoverage(join(reports, 'live'))).rejects.toThrow(/live is a symbolic link/);
    expect(await readdir(target)).toEqual(['coverage-store.json']);
  });

  it('the history folder of a target is not written or pruned through a link', async () => {
    const target = await mkdtemp(join(tmpdir(), 'agent-apis-not-ours-'));
    const old = ['2026-01-01T00-00-00-000Z-1.json', '2026-01-02T00-00-00-000Z-1.json'];
    for (const file of old) await writeFile(join(target, file), night(verifiedStore));
    const history = await mkdtemp(join(tmpdir(), 'agent-apis-history-'));
    await symlink(target, join(history, 'live'));
    const dir = await runFolder([storeNight([])]);
    await expect(
      writeRunReports(dir, 'live', { CONTRACT_HISTORY: history, CONTRACT_HISTORY_NIGHTS: '2' }),
    ).rejects.toThrow(/symbolic link/);
    expect((await readdir(target)).sort()).toEqual(old);
  });
});

describe('masking', () => {
  const env = { STORE_LOGIN: 'shop-login-77', STORE_AUTH_TOKEN: 'tok/Secret+9=abc123' };

  it('masks before it cuts: a token at the 8,000-character point leaves no prefix', () => {
    const masking = maskingFrom(env);
    // Control characters vanish after the cut, so what stood at 8,000 moves to the front.
    const text = `${'\u0001'.repeat(7_990)}${env.STORE_AUTH_TOKEN} and more`;
    const shown = maskText(text, masking);
    expect(shown).not.toContain('tok/Secret');
    expect(shown).toContain('[REDACTED]');
  });

  it('reports show no form of a configured secret: any case, URL-encoded, base64, the base64 login:token pair', async () => {
    const token = env.STORE_AUTH_TOKEN;
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const forms = [
      token.toUpperCase(),
      token.toLowerCase(),
      encodeURIComponent(token),
      b64(token),
      b64(`x${token}`),
      b64(`${env.STORE_LOGIN}:${token}`),
    ];
    const message = `echoed ${forms.map((f, i) => `form${i}=<${f}>`).join(' ')} authorization: Basic ${forms[5]}`;
    const store = storeNight([]);
    store.operations.push(operation('getOrder', 'failed', { failures: [failure(message, { record: forms[2] })] }));
    const dir = await runFolder([store]);
    const history = await mkdtemp(join(tmpdir(), 'agent-apis-history-'));
    const run = await writeRunReports(dir, 'live', { ...env, CONTRACT_HISTORY: history });
    const written = await Promise.all(
      ['report.html', 'run.json', 'coverage-junit.xml'].map((f) => readFile(join(dir, f), 'utf8')),
    );
    expect(run.failures[0]?.message).toContain('[REDACTED]');
    for (const text of written) {
      for (const form of [token, ...forms]) expect(text.toLowerCase()).not.toContain(form.toLowerCase());
      // The token inside a longer base64 run (one byte before it) is masked at that alignment too.
      expect(text).not.toContain(b64(`x${token}`).slice(4, 20));
    }
  });
});
