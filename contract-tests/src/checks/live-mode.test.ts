/**
 * Live mode end to end, run as an operator runs it (`CONTRACT_TARGET=live pnpm contract`), against loopback
 * stand-ins that behave like the real services (`stand-ins/`): real records, unknown ids → 404, credentials
 * required, the store's request limits and 429, the trust service's 409 lock. Not against Prism, which accepts
 * any id.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DirectoryStandInOptions, startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import type { InputMode } from '@agent-apis/test-servers/stand-ins/server';
import { type StoreStandInOptions, startStoreStandIn } from '@agent-apis/test-servers/stand-ins/store';
import { startTrustStandIn } from '@agent-apis/test-servers/stand-ins/trust';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContractSpec } from '../contract-spec/spec.ts';
import { type LiveRun, runContractLive } from '../engine/live-run.ts';
import type { CoverageEntry, ServiceSummary } from '../evidence/coverage.ts';
import { isUnknownIdProbe } from './vendor-facts.ts';

const STORE = { login: 'standin-login', authToken: 'standin-token-5d1f' };
const TRUST_KEY = 'sk_standin_key_8a2c';

const SERVICE_FILES = [
  'src/checks/directory.contract.test.ts',
  'src/checks/store.contract.test.ts',
  'src/checks/trust.contract.test.ts',
];

/** The live contract run on the three service suites (or `files`), with `env` added. */
function contractLive(
  env: Record<string, string>,
  extraFiles: string[] = [],
  files: string[] = [...SERVICE_FILES, ...extraFiles],
): Promise<LiveRun> {
  return runContractLive(env, files);
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((standIn) => standIn.close()));
});

async function standIns(
  store: Partial<StoreStandInOptions>,
  trust: { plantDecisionEnum?: boolean } = {},
  latencyMs = 0,
  mode: InputMode = 'strict',
  directory: DirectoryStandInOptions = {},
) {
  const started = {
    store: await startStoreStandIn({ ...STORE, latencyMs, mode, ...store }),
    trust: await startTrustStandIn({ apiKey: TRUST_KEY, latencyMs, mode, ...trust }),
    directory: await startDirectoryStandIn({ latencyMs, mode, ...directory }),
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

/** Fail / warn / inconclusive per service, as the closing note reports them. */
const verdictTable = (summaries: ServiceSummary[]) =>
  summaries
    .map(
      (s) =>
        `${s.service}: fail ${s.failed}, warn ${s.warnings ?? 0}, inconclusive ${s.inconclusive ?? 0}${s.skipped ? ` (skipped: ${s.skipped})` : ''}`,
    )
    .join('\n');

/** Lookups whose path ends in a parameter, and their outcome. */
const lookupOutcomes = (entries: CoverageEntry[], ids: string[]) =>
  entries.filter((e) => ids.includes(e.operation) && e.check === 'success:required');

describe('contract suite in live mode, against loopback stand-ins', () => {
  it('strict conforming services, a 20 req/s store with 100 ms latency: exit 0, ids from real answers, budgets kept, no mock-only header', async () => {
    const services = await standIns({ perSecond: 20, perMinute: 800 }, {}, 100);
    const run = await contractLive({ ...services.env, CONTRACT_STORE_RATE_LIMIT: '20/s,800/min' });
    expect(run.output).not.toMatch(/FAIL/);
    expect(run.code).toBe(0);
    // Green as evidence: every service says how many operations it verified of how many.
    expect(run.evidenceExit).toBe(0);
    for (const service of ['directory', 'store', 'trust']) {
      expect(run.output).toMatch(new RegExp(`${service} ▸ verified [1-9]\\d* of \\d+ operations: green`));
    }

    const store = await run.coverage('store');
    console.log(`strict run verdicts (reports in ${run.reports}):\n${verdictTable(run.summaries)}`);
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
            (e?.outcome === 'skipped' && /in the live account$|^no app configured/.test(e.note ?? '')) ||
            // A cart id is a guess (the API lists no carts): its 404 is inconclusive, never a fail.
            (e?.outcome === 'inconclusive' && /x-contract-guess/.test(e.note ?? ''))
          ),
      );
    expect(unaccounted).toEqual([]);
    console.log(
      `id-bound reads: ${idBoundReads.length}, passed with path inputs from answers or documented enums: ${idBoundReads.filter((op) => store.entries.some((e) => e.operation === op.id && e.check === 'success:required' && e.outcome === 'passed')).length}`,
    );
    // The only 404s the store answered were to the deliberately broken ids of negative_data_rejection and to the
    // cart lookup fed an order id (a link marked as a guess), and to documented_404's unknown ids: no invented id
    // reached it otherwise.
    const notFound = services.store.requests.filter((r) => r.status === 404);
    expect(notFound.length).toBeGreaterThan(0);
    expect(
      notFound.filter(
        (r) => !r.path.includes('not-a-number') && !isUnknownIdProbe(r.path) && r.operation !== 'getCart',
      ),
    ).toEqual([]);
    // The raw request of ignored_auth is the client's own call without its credentials: the same path and the
    // same query serialisation (an array parameter, `location_ids`, included), only the credential header left out.
    const answered = services.store.requests.find((r) => r.operation === 'listProductsLocations' && r.status === 200);
    const bare = services.store.requests.find((r) => r.path === answered?.path && r.status === 401);
    expect(answered?.search).toMatch(/location_ids=/);
    expect(bare).toMatchObject({ path: answered?.path, search: answered?.search });
    expect(answered?.headers).toContain('authorization');
    expect(bare?.headers).not.toContain('authorization');
    // Lookups ran for every listed product, not just the first; the report says how many records each checked.
    expect(services.store.requests.filter((r) => r.operation === 'getProduct' && r.status === 200).length).toBe(4);
    expect(store.recordsChecked?.getProduct).toBe(4);
    expect(run.summaries.find((s) => s.service === 'store')).toMatchObject({ failed: 0 });
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

  it('lenient conforming services (clamp limit, ignore unknown enums, search without q), a 20 req/s store: exit 0 with warnings naming the parameter; CONTRACT_STRICT=1 exits non-zero', async () => {
    const services = await standIns({ perSecond: 20, perMinute: 800 }, {}, 20, 'lenient');
    const env = { ...services.env, CONTRACT_STORE_RATE_LIMIT: '20/s,800/min' };
    const run = await contractLive(env);
    expect(run.output).not.toMatch(/FAIL/);
    expect(run.code).toBe(0);
    expect(run.evidenceExit).toBe(0);
    for (const service of ['directory', 'store', 'trust']) {
      expect(run.output).toMatch(new RegExp(`${service} ▸ verified [1-9]\\d* of \\d+ operations: green`));
    }
    console.log(`lenient run verdicts (reports in ${run.reports}):\n${verdictTable(run.summaries)}`);
    const store = await run.coverage('store');
    const directory = await run.coverage('directory');
    // The accepted out-of-range limit is a warning that names the parameter, the value sent and what the server did.
    const limitWarning = store.entries.find(
      (e) => e.operation === 'listProducts' && e.check === 'negative_data_rejection',
    );
    expect(limitWarning).toMatchObject({
      outcome: 'warning',
      note: expect.stringMatching(
        /query\.limit above its maximum 100 \(sent query\.limit=101\).*accepted it, answered 200/,
      ),
    });
    expect(
      directory.entries.find((e) => e.operation === 'search' && e.check === 'negative_data_rejection'),
    ).toMatchObject({
      outcome: 'warning',
      note: expect.stringMatching(/required query\.q missing.*answered 200/),
    });
    expect([...store.entries, ...directory.entries].filter((e) => e.outcome === 'failed')).toEqual([]);
    // The report lists the warnings, and the exit code ignores them.
    const markdown = await readFile(join(run.reports, 'live', 'coverage.md'), 'utf8');
    expect(markdown).toMatch(/### Warnings\n\n[\s\S]*store `listProducts` negative_data_rejection: .*query\.limit/);
    expect(run.output).toMatch(/\| store +\| live .*\| green/);
    // Budgets: the lenient trust service would bill malformed batches, yet the run stays within its 3 scans.
    expect(services.trust.scans).toBeLessThanOrEqual(3);
    expect((await run.coverage('trust')).budget?.scans).toBeLessThanOrEqual(3);
    expect(services.store.tooManyRequests).toBe(0);
    expect((await run.coverage('store')).budget?.tooManyRequests).toBe(0);
    console.log(
      `lenient run: store ${store.budget?.requests} requests, ${services.store.tooManyRequests} answered 429; trust ${services.trust.scans} scans of 3`,
    );

    const strict = await contractLive({ ...env, CONTRACT_STRICT: '1' });
    expect(strict.code).not.toBe(0);
    expect(strict.evidenceExit).toBe(1);
    expect(strict.output).toMatch(/listProducts live checks \(warnings, CONTRACT_STRICT=1\)/);
    const junit = await readFile(join(strict.reports, 'live', 'coverage-junit.xml'), 'utf8');
    expect(junit).toMatch(
      /name="listProducts \(GET \/products\.json\)"><failure type="warning" message="[^"]*negative_data_rejection: query\.limit/,
    );
  }, 240_000);

  it('a lenient trust service that bills malformed batches: the negative checks are reserved in CONTRACT_TRUST_BUDGET, never exceeded', async () => {
    const services = await standIns({}, {}, 0, 'lenient');
    const run = await contractLive(
      { ...services.env, CONTRACT_TRUST_BUDGET: '20' },
      [],
      ['src/checks/trust.contract.test.ts'],
    );
    expect(run.code).toBe(0);
    const trust = await run.coverage('trust');
    const negatives = trust.entries.filter((e) => e.check === 'negative_data_rejection' && e.outcome !== 'skipped');
    // Malformed requests were sent (after a verified baseline only) and billed by the lenient service; the run
    // still stayed within 20 scans.
    expect(negatives.length).toBeGreaterThan(0);
    expect(services.trust.scans).toBeGreaterThan(0);
    expect(services.trust.scans).toBeLessThanOrEqual(20);
    expect(trust.budget?.scans).toBeGreaterThanOrEqual(services.trust.scans);
    expect(trust.budget?.scans).toBeLessThanOrEqual(20);
    console.log(
      `lenient trust, budget 20: the service billed ${services.trust.scans} scans, the run booked ${trust.budget?.scans}`,
    );
  }, 120_000);

  it('a base URL with user:password@ or a key in its path never reaches test titles, stdout or the evidence', async () => {
    const directory = await startDirectoryStandIn();
    running.push(directory);
    const key = 'k_3f9a8b7c6d5e';
    // The stand-in serves no such prefix: every request is a 404, and the messages name the URL sent.
    const withKey = await contractLive(
      { DIRECTORY_BASE_URL: `${directory.url}/${key}` },
      [],
      [SERVICE_FILES[0] as string],
    );
    expect(withKey.output).toMatch(/directory contract \(live, http:\/\/127\.0\.0\.1:\d+\/\*\*\*\)/);
    expect(withKey.evidenceExit).toBe(1);
    expect(withKey.output).not.toContain(key);
    expect(JSON.stringify(withKey.evidence)).not.toContain(key);
    const secret = 'pw-5ecret-77';
    const withUser = await contractLive(
      { DIRECTORY_BASE_URL: directory.url.replace('http://', `http://operator:${secret}@`) },
      [],
      [SERVICE_FILES[0] as string],
    );
    expect(withUser.code).not.toBe(0);
    expect(withUser.output).toMatch(/baseUrl must not carry credentials/);
    expect(withUser.output).not.toContain(secret);
  }, 120_000);

  it('a CONTRACT_* number out of range stops the run before anything is sent, naming the variable and its range', async () => {
    const directory = await startDirectoryStandIn();
    running.push(directory);
    for (const [name, value, range] of [
      ['CONTRACT_SAMPLE', '1e6', 'from 1 to 100 records'],
      ['CONTRACT_MAX_RETRY_AFTER', '3000000', 'from 0 to 600 seconds'],
    ]) {
      const run = await contractLive(
        { DIRECTORY_BASE_URL: directory.url, [name as string]: value as string },
        [],
        [SERVICE_FILES[0] as string],
      );
      expect(run.code).not.toBe(0);
      expect(run.output).toContain(`${name} must be a whole number ${range}, got "${value}"`);
    }
    expect(directory.requests).toEqual([]);
  }, 120_000);

  const plantedRuns: {
    name: string;
    files: string[];
    start: () => ReturnType<typeof standIns>;
    expected: RegExp;
    /** The operation's failures in the evidence file. */
    evidence?: { operation: string; failures: number };
  }[] = [
    {
      name: 'a string price in every product list entry',
      files: ['src/checks/store.contract.test.ts'],
      start: () => standIns({ perSecond: 1000, perMinute: 100_000, plant: 'listField' }),
      expected:
        /listProducts: response_schema_conformance: response body \(required\) \/0\/product\/price must be number/,
      // One defect, one fail: the same field in every entry (and in the required and the all-inputs answer) once.
      evidence: { operation: 'listProducts', failures: 1 },
    },
    {
      name: "a string price in one non-first product's lookup only",
      files: ['src/checks/store.contract.test.ts'],
      start: () => standIns({ perSecond: 1000, perMinute: 100_000, plant: 'lookupField' }),
      expected:
        /getProduct: response_schema_conformance: response body \(required, id=\d+\) \/product\/price must be number/,
      evidence: { operation: 'getProduct', failures: 1 },
    },
    {
      name: 'a 404 to the lookup of a product the list named (not the first)',
      files: ['src/checks/store.contract.test.ts'],
      start: () => standIns({ perSecond: 1000, perMinute: 100_000, plant: 'lookupGone' }),
      expected:
        /getProduct: positive_data_acceptance: a valid request \(required, id=1103, sent path\.id=1103\) got 404: the record was listed by listProducts entry 2/,
    },
    {
      name: 'a trust decision outside its enum',
      files: ['src/checks/trust.contract.test.ts'],
      start: () => standIns({}, { plantDecisionEnum: true }),
      expected:
        /decide: response_schema_conformance: response body \(required\) \/decision\/recommended_action must be equal to one of the allowed values/,
    },
    {
      name: 'a string stars in one directory list entry (not the first)',
      files: ['src/checks/directory.contract.test.ts'],
      start: () => standIns({}, {}, 0, 'strict', { plant: 'listField' }),
      expected:
        /listMcpServers: response_schema_conformance: response body \(required\) \/results\/\d+\/stars must be integer/,
    },
  ];
  it("planted violation in the last product's lookup, on the second page of the list: sampled and named", async () => {
    const services = await standIns({ perSecond: 1000, perMinute: 100_000, plant: 'lookupField' });
    // 52 more products (55 in all): the list's default page of 50 is full, so the run reads page 2 as well.
    const authorization = `Basic ${Buffer.from(`${STORE.login}:${STORE.authToken}`).toString('base64')}`;
    for (let i = 0; i < 52; i++) {
      await fetch(`${services.store.url}/products.json`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ product: { name: `Tasting cup ${i + 1}`, price: 4.5, status: 'available' } }),
      });
    }
    const run = await contractLive(
      { ...services.env, CONTRACT_STORE_RATE_LIMIT: '1000/s,100000/min' },
      [],
      ['src/checks/store.contract.test.ts'],
    );
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(
      /getProduct: response_schema_conformance: response body \(required, id=20051\) \/product\/price must be number/,
    );
    const lookups = services.store.requests.filter((r) => r.operation === 'getProduct' && r.status === 200);
    expect(lookups.map((r) => r.path)).toContain('/v1/products/20051.json');
    // The fail names the product and the field, the URL (base shown, no credentials) and a one-line reproduction.
    const getProduct = run.evidence.store?.operations.find((op) => op.operation === 'getProduct');
    expect(getProduct?.verdict).toBe('failed');
    expect(getProduct?.failures).toEqual([
      {
        check: 'response_schema_conformance',
        message: expect.stringMatching(/^response body \(required, id=20051\) \/product\/price must be number/),
        record: 'id=20051',
        url: `${services.store.url}/products/20051.json`,
        reproduction: 'curl -sS -X GET "$STORE_BASE_URL/products/20051.json" -u "$STORE_LOGIN:$STORE_AUTH_TOKEN"',
      },
    ]);
    expect(JSON.stringify(run.evidence)).not.toContain(STORE.authToken);
    expect(run.evidenceExit).toBe(1);
    // CONTRACT_SAMPLE (10) records looked up; the all-inputs call is not sent once the baseline failed.
    expect((await run.coverage('store')).recordsChecked?.getProduct).toBe(10);
  }, 120_000);

  for (const planted of plantedRuns) {
    it(`planted violation, ${planted.name}: exit non-zero naming the operation and the field`, async () => {
      const services = await planted.start();
      const run = await contractLive(
        { ...services.env, CONTRACT_STORE_RATE_LIMIT: '1000/s,100000/min' },
        [],
        planted.files,
      );
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(planted.expected);
      const failed = run.summaries.flatMap((s) => s.exceptions.filter((e) => e.outcome === 'failed'));
      expect(failed.length).toBeGreaterThan(0);
      expect(run.evidenceExit).toBe(1);
      if (planted.evidence) {
        const operation = Object.values(run.evidence)
          .flatMap((e) => e.operations)
          .find((op) => op.operation === planted.evidence?.operation);
        expect(operation?.verdict).toBe('failed');
        expect(operation?.failures).toHaveLength(planted.evidence.failures);
      }
    }, 120_000);
  }
});
