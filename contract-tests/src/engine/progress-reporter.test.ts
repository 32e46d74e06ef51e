import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { ProgressReporter } from './progress-reporter.ts';

const moduleOf = (moduleId: string, tests: number) =>
  ({
    moduleId,
    children: {
      *allTests() {
        for (let i = 0; i < tests; i++) yield {};
      },
    },
  }) as unknown as TestModule;
const caseOf = (moduleId: string) => ({ module: { moduleId } }) as unknown as TestCase;

describe('live progress', () => {
  it('prints checks done of total per contract file, only when something changed', () => {
    let now = 1_000;
    const lines: string[] = [];
    const reporter = new ProgressReporter({ intervalMs: 60_000, write: (l) => lines.push(l), now: () => now });
    reporter.onTestRunStart();
    reporter.onTestModuleCollected(moduleOf('/x/src/store.contract.test.ts', 700));
    reporter.onTestModuleCollected(moduleOf('/x/src/trust.contract.test.ts', 12));
    reporter.onTestModuleCollected(moduleOf('/x/src/mcp.contract.test.ts', 40));
    for (let i = 0; i < 212; i++) reporter.onTestCaseResult(caseOf('/x/src/store.contract.test.ts'));
    reporter.onTestCaseResult(caseOf('/x/src/trust.contract.test.ts'));
    now += 135_000;
    reporter.print();
    now += 15_000;
    reporter.print();
    reporter.onTestRunEnd();
    expect(lines).toEqual([
      'contract progress: 213 of 752 checks done (store 212/700, tool servers 0/40, trust 1/12), 2m15s',
    ]);
  });
});
