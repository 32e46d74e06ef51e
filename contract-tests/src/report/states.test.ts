import { describe, expect, it } from 'vitest';
import type { ServiceCoverage } from '../evidence/coverage.ts';
import { failure, operation, serviceEvidence } from './evidence-fixtures.ts';
import { judgeRun, requiredServices, STATE_LABELS } from './states.ts';

const green = serviceEvidence('directory', [operation('listRepos', 'verified'), operation('getRepo', 'verified')]);
const skipped = (service: string) =>
  serviceEvidence(service, [], { skipped: 'no credentials (ENTROPY0_API_KEY not set)' });

function coverageOf(service: string, entries: ServiceCoverage['entries'], more: Partial<ServiceCoverage> = {}) {
  return {
    service,
    mode: 'mock',
    operations: ['listTools', 'getTool'],
    documentedErrors: {},
    entries,
    ...more,
  } as ServiceCoverage;
}

describe('the state of a run', () => {
  it('is green only with every service green; a skipped service stays skipped (not configured)', () => {
    const run = judgeRun('live', [green, skipped('trust')], []);
    expect(run.services.map((s) => [s.service, s.state])).toEqual([
      ['directory', 'green'],
      ['trust', 'skipped'],
    ]);
    expect(STATE_LABELS.skipped).toBe('skipped (not configured)');
    expect(run.exitCode).toBe(0);
    expect(run.headline).toBe('contract (live): green: 2 of 2 operations verified (exit 0)');
  });

  it('is unverified (3) when a CONTRACT_REQUIRE service was skipped, and when nothing ran at all', () => {
    const required = requiredServices({ CONTRACT_REQUIRE: ' Store, trust ,' });
    expect([...required]).toEqual(['store', 'trust']);
    const run = judgeRun('live', [green, skipped('trust')], [], { required });
    expect(run.exitCode).toBe(3);
    const trust = run.services.find((s) => s.service === 'trust');
    expect(trust?.state).toBe('unverified');
    expect(trust?.reasons).toEqual([
      'required by CONTRACT_REQUIRE, but not run: no credentials (ENTROPY0_API_KEY not set)',
    ]);
    // A required service that left nothing at all is unverified too.
    expect(run.services.find((s) => s.service === 'store')?.state).toBe('unverified');
    expect(judgeRun('live', [skipped('trust'), skipped('store')], []).exitCode).toBe(3);
    expect(judgeRun('live', [], []).exitCode).toBe(3);
  });

  it('is failed (1) on any failure, unverified (3) short of the floor, never "passed"', () => {
    const failed = serviceEvidence('store', [
      operation('getProduct', 'failed', { failures: [failure('product 1101: price is a string')] }),
    ]);
    expect(judgeRun('live', [green, failed], []).exitCode).toBe(1);
    const short = serviceEvidence('store', [operation('listProducts', 'inconclusive', { reason: '429 all night' })]);
    const run = judgeRun('live', [short], []);
    expect(run.exitCode).toBe(3);
    expect(run.headline).toContain('unverified');
    expect(run.headline).not.toContain('passed');
  });

  it('turns warnings red with CONTRACT_STRICT=1', () => {
    const warned = serviceEvidence('directory', [
      operation('listRepos', 'verified'),
      operation('searchRepos', 'verified'),
      operation('getRepo', 'warned', { warnings: ['accepts limit=101'], safety: 'write' }),
    ]);
    expect(judgeRun('live', [warned], []).exitCode).toBe(0);
    const strict = judgeRun('live', [warned], [], { strict: true });
    expect(strict.exitCode).toBe(1);
    expect(strict.services[0]?.reasons[0]).toBe('CONTRACT_STRICT=1: 1 warning(s)');
  });

  it('judges a service without evidence (a tool server, a mock run) from its coverage', () => {
    const passed = coverageOf('store-mcp', [
      { operation: 'listTools', check: 'call:required', outcome: 'passed' },
      { operation: 'getTool', check: 'call:required', outcome: 'skipped', note: 'no record' },
    ]);
    const broken = coverageOf('directory-mcp', [
      { operation: 'tools/list', check: 'drift', outcome: 'failed', note: 'breaking drift' },
    ]);
    const nothing = coverageOf('trust', [{ operation: 'listTools', check: 'call:required', outcome: 'skipped' }]);
    const notRun = coverageOf('store', [], { skipped: 'no credentials' });
    const run = judgeRun('live', [], [passed, broken, nothing, notRun]);
    expect(run.services.map((s) => [s.service, s.state, s.source])).toEqual([
      ['directory-mcp', 'failed', 'coverage'],
      ['store', 'skipped', 'coverage'],
      ['store-mcp', 'green', 'coverage'],
      ['trust', 'unverified', 'coverage'],
    ]);
    // Evidence wins over coverage for the same service.
    expect(judgeRun('live', [green], [coverageOf('directory', [], { skipped: 'x' })]).services).toHaveLength(1);
  });
});
