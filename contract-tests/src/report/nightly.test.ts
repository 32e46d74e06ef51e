import { describe, expect, it } from 'vitest';
import { operation, serviceEvidence } from './evidence-fixtures.ts';
import { nightlyExitCode, runSection, stepResult, stepTable } from './nightly.ts';
import type { RunFile } from './run-report.ts';
import { judgeRun, requiredServices } from './states.ts';

function runFile(judgement: ReturnType<typeof judgeRun>, more: Partial<RunFile> = {}): RunFile {
  return {
    ...judgement,
    changes: [],
    html: '/tmp/report.html',
    strict: false,
    required: [],
    history: { dir: '/tmp/h', file: '/tmp/h/x.json', notes: [] },
    source: 'evidence',
    failures: [],
    ...more,
  };
}

const notConfigured = (service: string) => serviceEvidence(service, [], { skipped: `no credentials (${service})` });
const verified = serviceEvidence('trust', [operation('decide', 'verified')]);

describe('the nightly summary', () => {
  it('says the live step with no secrets is skipped (not configured), not ok, and does not fail the nightly', () => {
    // What `CONTRACT_TARGET=live pnpm contract` judges with nothing configured: every service skipped, exit 3.
    const run = runFile(
      judgeRun('live', [notConfigured('directory'), notConfigured('store'), notConfigured('trust')], []),
    );
    expect(run.exitCode).toBe(3);
    const results = [
      stepResult({ name: 'build', code: 0, seconds: 3 }),
      stepResult({ name: 'contract (live)', code: 1, seconds: 9, target: 'live', run }),
    ];
    const table = stepTable(results);
    expect(table).toContain(
      '| contract (live) | ⚪ skipped (not configured): no service configured (directory, store, trust), nothing verified | 9 |',
    );
    expect(table).not.toMatch(/contract \(live\) \| ok/);
    expect(nightlyExitCode(results)).toBe(0);
  });

  it('is red when a service the workflow has secrets for (CONTRACT_REQUIRE) did not run', () => {
    const required = requiredServices({ CONTRACT_REQUIRE: 'trust,store' });
    const run = runFile(judgeRun('live', [verified, notConfigured('store')], [], { required }));
    const result = stepResult({ name: 'contract (live)', code: 1, seconds: 9, target: 'live', run });
    expect(result).toMatchObject({ state: 'unverified', failing: true });
    expect(result.label).toBe('🟠 unverified: 1 of 1 operations verified (exit 3)');
  });

  it('reports green, failed, and a run that wrote no judgement', () => {
    const green = runFile(judgeRun('live', [verified], []));
    expect(stepResult({ name: 'c', code: 0, seconds: 1, target: 'live', run: green })).toMatchObject({
      state: 'green',
      failing: false,
      label: '🟢 green: 1 of 1 operations verified (exit 0)',
    });
    // The judgement said green but vitest failed a test the evidence does not show: failed.
    expect(stepResult({ name: 'c', code: 1, seconds: 1, target: 'live', run: green })).toMatchObject({
      state: 'failed',
    });
    expect(stepResult({ name: 'c', code: 1, seconds: 1, target: 'live' })).toMatchObject({
      failing: true,
      label: 'FAILED: no judgement written (exit 1)',
    });
  });

  it('links the HTML page and escapes server text in changes and reasons as data', () => {
    const failed = serviceEvidence('store', [
      operation('getProduct', 'failed', {
        failures: [
          { check: 'baseline', message: 'got <img src=https://x.example/b.png> @octocat [x](https://evil.example)' },
        ],
      }),
    ]);
    const run = runFile(judgeRun('live', [failed], []), {
      failures: [
        {
          service: 'store',
          operation: 'getProduct',
          check: 'baseline',
          message: 'got <img src=https://x.example/b.png> @octocat [x](https://evil.example)',
          record: 'id=1101',
          url: '$STORE_BASE_URL/products/1101.json',
          reproduction: 'curl -u "$STORE_LOGIN:$STORE_AUTH_TOKEN" "$STORE_BASE_URL/products/1101.json"',
        },
      ],
      changes: [
        {
          kind: 'field-gone',
          service: 'store',
          operations: ['listProducts'],
          field: 'product.price',
          message:
            'store: field product.price was in every record last night, missing from records tonight (listProducts)',
        },
      ],
    });
    const section = runSection('Contract (live)', run, '[report](https://github.com/o/r/actions/runs/1#artifacts)');
    expect(section).toContain('HTML report: [report](https://github.com/o/r/actions/runs/1#artifacts)');
    expect(section).toContain('- **warning**: store: field product.price was in every record last night');
    expect(section).toContain('🔴 failed');
    expect(section).toContain(
      '<details><summary>Failures, one per operation (1)</summary>\n\n- store `getProduct` baseline: got &lt;img src=https:\u200b//x.example/b.png&gt;',
    );
    expect(section).toContain(' · record `id=1101` · URL `$STORE_BASE_URL/products/1101.json`');
    expect(section).toContain(
      '\n  reproduce: `curl -u "$STORE_LOGIN:$STORE_AUTH_TOKEN" "$STORE_BASE_URL/products/1101.json"`',
    );
    const reasons = section.split('\n').find((line) => line.startsWith('| store'));
    expect(reasons).toContain(
      '&lt;img src=https:\u200b//x.example/b.png&gt; @\u200boctocat \\[x\\](https:\u200b//evil.example)',
    );
  });
});
