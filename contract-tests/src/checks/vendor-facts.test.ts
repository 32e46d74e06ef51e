/**
 * The vendor-fact checks against the loopback stand-ins: green on conforming ones (strict and lenient alike, a
 * lenient one with warnings only), red on each broken mode that breaks a repaired fact (`no-404`, `after-one`,
 * `bounds-500` of `faults/broken-stand-ins.ts`).
 */
import * as directoryFunctions from '@agent-apis/directory';
import { createDirectoryClient } from '@agent-apis/directory';
import * as storeFunctions from '@agent-apis/store';
import { createStoreClient } from '@agent-apis/store';
import { type FaultMode, withFault } from '@agent-apis/test-servers/faults/broken-stand-ins';
import { startDirectoryStandIn } from '@agent-apis/test-servers/stand-ins/directory';
import type { InputMode, StandIn } from '@agent-apis/test-servers/stand-ins/server';
import { startStoreStandIn } from '@agent-apis/test-servers/stand-ins/store';
import { startTrustStandIn } from '@agent-apis/test-servers/stand-ins/trust';
import * as trustFunctions from '@agent-apis/trust';
import { createTrustClient } from '@agent-apis/trust';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContractSpec } from '../contract-spec/spec.ts';
import type { ServiceProfile } from '../engine/profile.ts';
import { type ProbeOptions, probeVendorFacts, type VendorFinding } from './vendor-facts.ts';

const STORE = { login: 'facts-login', authToken: 'facts-token' };
const TRUST_KEY = 'sk_facts_key';

const PROFILES = {
  store: {
    service: 'store',
    functions: storeFunctions,
    createClient: (target, fetch) =>
      createStoreClient({ baseUrl: target.baseUrl, ...target.credentials, fetch, rateLimit: false }),
    validators: {},
    budget: {},
  },
  trust: {
    service: 'trust',
    functions: trustFunctions,
    createClient: (target, fetch) =>
      createTrustClient({ baseUrl: target.baseUrl, apiKey: target.credentials.apiKey ?? '', fetch, cache: false }),
    validators: {},
    budget: {},
  },
  directory: {
    service: 'directory',
    functions: directoryFunctions,
    createClient: (target, fetch) => createDirectoryClient({ baseUrl: target.baseUrl, fetch, cache: false }),
    validators: {},
    budget: {},
  },
} satisfies Record<string, ServiceProfile>;

type Service = keyof typeof PROFILES;

const running: StandIn[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function standIn(service: Service, mode: InputMode): Promise<StandIn> {
  const started =
    service === 'store'
      ? await startStoreStandIn({ ...STORE, mode })
      : service === 'trust'
        ? await startTrustStandIn({ apiKey: TRUST_KEY, mode })
        : await startDirectoryStandIn({ mode });
  running.push(started);
  return started;
}

/** The findings of the probe on `service`'s stand-in (`mode`), behind `fault` when given. */
async function probe(
  service: Service,
  options: { mode?: InputMode; fault?: FaultMode; extra?: Partial<ProbeOptions> } = {},
): Promise<VendorFinding[]> {
  let server = await standIn(service, options.mode ?? 'strict');
  if (options.fault) {
    server = await withFault(server, service, options.fault);
    running.push(server);
  }
  const credentials: Record<string, string> =
    service === 'store' ? { ...STORE } : service === 'trust' ? { apiKey: TRUST_KEY } : {};
  return probeVendorFacts({
    profile: PROFILES[service],
    spec: await loadContractSpec(service),
    target: { service, baseUrl: server.url, credentials } as never,
    mode: 'live',
    spacingMs: 0,
    ...options.extra,
  });
}

const outcomes = (findings: VendorFinding[], check: VendorFinding['check']) =>
  [...new Set(findings.filter((f) => f.check === check).map((f) => f.outcome))].sort();
const failed = (findings: VendorFinding[]) => findings.filter((f) => f.outcome === 'failed');

describe('vendor facts: conforming stand-ins', () => {
  it('store, strict: unknown ids get 404, page 0 is refused, the orders after an id are a list', async () => {
    const findings = await probe('store');
    expect(failed(findings)).toEqual([]);
    expect(outcomes(findings, 'documented_404')).toEqual(['passed']);
    expect(outcomes(findings, 'page_bounds')).toEqual(['passed']);
    expect(findings.filter((f) => f.check === 'cursor_answer_shape').map((f) => [f.operation, f.outcome])).toEqual(
      expect.arrayContaining([['listOrdersAfter', 'passed']]),
    );
  });

  it('store, lenient: page 0 accepted is a warning, never a fail', async () => {
    const findings = await probe('store', { mode: 'lenient' });
    expect(failed(findings)).toEqual([]);
    expect(outcomes(findings, 'page_bounds')).toEqual(['warning']);
  });

  it('directory: offset -1 refused when strict, a warning when lenient; unknown records 404', async () => {
    const strict = await probe('directory');
    expect(failed(strict)).toEqual([]);
    expect(outcomes(strict, 'page_bounds')).toEqual(['passed']);
    expect(outcomes(strict, 'documented_404')).toEqual(['passed']);
    expect(outcomes(await probe('directory', { mode: 'lenient' }), 'page_bounds')).toEqual(['warning']);
  });

  it('trust: a score batch over maxItems is refused; accepted, it is inconclusive (x-provisional); skipped past the budget', async () => {
    expect(outcomes(await probe('trust'), 'batch_max_items')).toEqual(['passed']);
    expect(outcomes(await probe('trust', { mode: 'lenient' }), 'batch_max_items')).toEqual(['inconclusive']);
    const budgeted = await probe('trust', { extra: { scanAllowance: 3 } });
    expect(budgeted.find((f) => f.check === 'batch_max_items')).toMatchObject({
      outcome: 'skipped',
      detail: expect.stringMatching(/would bill all 151 items; the budget allows 3/),
    });
  });

  it('against a mock that answers any id, documented_404 is skipped with its reason', async () => {
    const findings = await probe('store', { extra: { mode: 'mock' } });
    expect(outcomes(findings, 'documented_404')).toEqual(['skipped']);
  });
});

describe('vendor facts: broken stand-ins are red', () => {
  it('no-404: a lookup of a record that does not exist answered 200 fails documented_404', async () => {
    for (const service of ['store', 'directory'] as const) {
      const findings = await probe(service, { fault: 'no-404' });
      expect(outcomes(findings, 'documented_404'), service).toEqual(['failed']);
      expect(failed(findings)[0]?.detail).toMatch(/answered 200; the spec documents 404/);
    }
  });

  it('after-one: /orders/after/{id} answering one order fails cursor_answer_shape', async () => {
    const findings = await probe('store', { fault: 'after-one' });
    expect(failed(findings).map((f) => [f.operation, f.check])).toContainEqual([
      'listOrdersAfter',
      'cursor_answer_shape',
    ]);
    expect(failed(findings).every((f) => f.check === 'cursor_answer_shape')).toBe(true);
  });

  it('bounds-500: out-of-range page, offset and batch answered 500 fail', async () => {
    expect(outcomes(await probe('store', { fault: 'bounds-500' }), 'page_bounds')).toEqual(['failed']);
    expect(outcomes(await probe('directory', { fault: 'bounds-500' }), 'page_bounds')).toEqual(['failed']);
    expect(outcomes(await probe('trust', { fault: 'bounds-500' }), 'batch_max_items')).toEqual(['failed']);
  });
});
