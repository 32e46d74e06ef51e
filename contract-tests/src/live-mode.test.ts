/**
 * Live mode end to end, run as an operator runs it (`CONTRACT_TARGET=live pnpm contract`), against loopback
 * stand-ins that behave like the real services (`stand-ins/`): real records, unknown ids → 404, credentials
 * required, the store's request limits and 429, the trust service's 409 lock. Not against Prism, which accepts
 * any id.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoverageEntry, ServiceCoverage, ServiceSummary } from './coverage.ts';
import { loadContractSpec } from './spec.ts';
import { startDirectoryStandIn } from './stand-ins/directory.ts';
import { type StoreStandInOptions, startStoreStandIn } from './stand-ins/store.ts';
import { startTrustStandIn } from './stand-ins/trust.ts';

const packageDir = join(import.meta.dirname, '..');
const STORE = { login: 'standin-login', authToken: 'standin-token-5d1f' };
const TRUST_KEY = 'sk_standin_key_8a2c';

interface Run {
  code: number;
  output: string;
  summaries: ServiceSummary[];
  coverage: (service: string) => Promise<ServiceCoverage>;
}

/** `vitest run --project contract` in live mode on the three service suites, with `env` added. */
async function contractLive(env: Record<string, string>, extraFiles: string[] = []): Promise<Run> {
  const reports = await mkdtemp(join(tmpdir(), 'agent-apis-live-'));
  const vitest = join(packageDir, 'node_modules', 'vitest', 'vitest.mjs');
  const files = [
    'src/directory.contract.test.ts',
    'src/store.contract.test.ts',
    'src/trust.contract.test.ts',
    ...extraFiles,
  ];
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [vitest, 'run', '--project', 'contract', ...files],
      {
        cwd: packageDir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          CONTRACT_TARGET: 'live',
          CONTRACT_REPORTS_DIR: reports,
          ...env,
        },
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) => resolve({ code: error ? ((error.code as number) ?? 1) : 0, output: stdout + stderr }),
    );
  });
  const summaries = JSON.parse(await readFile(join(reports, 'live', 'coverage.json'), 'utf8').catch(() => '[]'));
  const coverage = async (service: string) =>
    JSON.parse(await readFile(join(reports, 'live', `coverage-${service}.json`), 'utf8')) as ServiceCoverage;
  return { code, output, summaries, coverage };
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((standIn) => standIn.close()));
});

async function standIns(
  store: Partial<StoreStandInOptions>,
  trust: { plantDecisionEnum?: boolean } = {},
  latencyMs = 0,
) {
  const started = {
    store: await startStoreStandIn({ ...STORE, latencyMs, ...store }),
    trust: await startTrustStandIn({ apiKey: TRUST_KEY, latencyMs, ...trust }),
    directory: await startDirectoryStandIn({ latencyMs }),
  };
  running.push(started.store, started.trust, started.directory);
  const env = {
    STORE_BASE_URL: started.store.url,
    STORE_LOGIN: STORE.login,
    STORE_AUTH_TOKEN: STORE.authToken,
    TRUST_BASE_URL: started.trust.url,
    ENTROPY0_API_KEY: TRUST_KEY,
    DIRECTORY_BASE_URL: started.directory.url,
  };
  return { ...started, env };
}

/** Lookups whose path ends in a parameter, and their outcome. */
const lookupOutcomes = (entries: CoverageEntry[], ids: string[]) =>
  entries.filter((e) => ids.includes(e.operation) && e.check === 'success:required');

describe('contract suite in live mode, against loopback stand-ins', () => {
  it('conforming services, a 20 req/s store with 100 ms latency: exit 0, ids from real answers, budgets kept, no mock-only header', async () => {
    const services = await standIns({ perSecond: 20, perMinute: 800 }, {}, 100);
    const run = await contractLive({ ...services.env, CONTRACT_STORE_RATE_LIMIT: '20/s,800/min' });
    expect(run.output).not.toMatch(/FAIL/);
    expect(run.code).toBe(0);

    const store = await run.coverage('store');
    console.log(run.output.match(/Budgets:\n[\s\S]*?\n\n/)?.[0] ?? '(no budget table)');
    console.log(
      `must-show run: store ${store.budget?.requests} requests, ${store.budget?.tooManyRequests} answered 429, ` +
        `stand-in saw ${services.store.requests.length} and sent ${services.store.tooManyRequests} 429s; ` +
        `trust ${services.trust.scans} scans, ${services.trust.conflicts} 409s`,
    );
    // Every id-bound read passed with an id from an answer, or was skipped for lack of a record (or a value only
    // the operator has), never failed.
    const idBound = [
      'getProduct',
      'getProductVariant',
      'getCategory',
      'getPage',
      'getCustomer',
      'getOrder',
      'getHook',
      'getCountryRegion',
      'getAppInstallStatus',
    ];
    const outcomes = lookupOutcomes(store.entries, idBound);
    expect(outcomes.filter((e) => e.outcome === 'failed')).toEqual([]);
    expect(
      outcomes
        .filter((e) => e.outcome === 'passed')
        .map((e) => e.operation)
        .sort(),
    ).toEqual(
      [
        'getCategory',
        'getCountryRegion',
        'getCustomer',
        'getOrder',
        'getPage',
        'getProduct',
        'getProductVariant',
      ].sort(),
    );
    expect(store.entries.find((e) => e.operation === 'getHook' && e.check === 'success:required')?.note).toBe(
      'no hook in the live account',
    );
    // And every id-bound read of the spec: passed, or skipped for lack of a record (or of the operator's app code).
    const spec = await loadContractSpec('store');
    const idBoundReads = spec.operations.filter(
      (op) => op.safety === 'read' && op.parameters.some((p) => p.in === 'path'),
    );
    const unaccounted = idBoundReads
      .map((op) => store.entries.find((e) => e.operation === op.id && e.check === 'success:required'))
      .filter(
        (e) =>
          !(
            e?.outcome === 'passed' ||
            (e?.outcome === 'skipped' && /in the live account$|^no app configured/.test(e.note ?? ''))
          ),
      );
    expect(unaccounted).toEqual([]);
    console.log(
      `id-bound reads: ${idBoundReads.length}, passed with path inputs from answers or documented enums: ${idBoundReads.filter((op) => store.entries.some((e) => e.operation === op.id && e.check === 'success:required' && e.outcome === 'passed')).length}`,
    );
    // The only 404s the store answered were to the deliberately broken ids of negative_data_rejection: no
    // invented id reached it.
    const notFound = services.store.requests.filter((r) => r.status === 404);
    expect(notFound.length).toBeGreaterThan(0);
    expect(notFound.filter((r) => !r.path.includes('not-a-number'))).toEqual([]);
    // Budgets: no 429 reached a check, trust within 3 scans without any write switch, one call at a time.
    expect(store.entries.filter((e) => e.outcome === 'failed')).toEqual([]);
    expect(services.trust.scans).toBeGreaterThan(0);
    expect(services.trust.scans).toBeLessThanOrEqual(3);
    expect(services.trust.conflicts).toBe(0);
    // The report books a scan for every successful call (at least what the service counted), never above budget.
    const trust = (await run.coverage('trust')).budget;
    expect(trust?.scanBudget).toBe(3);
    expect(trust?.scans).toBeGreaterThanOrEqual(services.trust.scans);
    expect(trust?.scans).toBeLessThanOrEqual(3);
    expect(store.budget?.tooManyRequests).toBe(0);
    expect(services.store.tooManyRequests).toBe(0);
    expect(services.store.dangerousCalls).toEqual([]);
    expect(services.store.foreignWrites).toEqual([]);
    // Prism's mock-only Prefer header never reached a service.
    expect([...services.store.mockHeaderRequests, ...services.trust.mockHeaderRequests]).toEqual([]);
    expect(services.directory.requests.filter((r) => r.headers.includes('prefer'))).toEqual([]);
    expect(run.output).toMatch(/\| store +\| \d+ +\| \d+ +\| - +\| 20\/s,800\/min/);
  }, 240_000);

  it('planted violations fail the run naming operation and field: list entries, a single record, a trust enum', async () => {
    const services = await standIns(
      { perSecond: 1000, perMinute: 100_000, plant: { listEntryType: true, singleRecordField: true } },
      { plantDecisionEnum: true },
    );
    const run = await contractLive({ ...services.env, CONTRACT_STORE_RATE_LIMIT: '1000/s,100000/min' });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(
      /listProducts: response_schema_conformance: response body \/0\/product\/price must be number/,
    );
    expect(run.output).toMatch(
      /getProduct: response_schema_conformance: response body \/product\/stock must be integer/,
    );
    expect(run.output).toMatch(
      /decide: response_schema_conformance: response body \/decision\/recommended_action must be equal to one of the allowed values/,
    );
  }, 120_000);
});
