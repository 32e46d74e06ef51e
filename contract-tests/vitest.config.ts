import { defineConfig } from 'vitest/config';
import { ProgressReporter } from './src/engine/progress-reporter.ts';
import { contractNumber, contractTarget, REPORTS_DIR, writeServices } from './src/settings.ts';

/**
 * A live check waits for the service's budget: paced requests and a `Retry-After` of up to
 * CONTRACT_MAX_RETRY_AFTER seconds (default 120), several times in one check. Its time limit leaves room for that,
 * so a slow or rate-limiting service is never reported as a failed check by a timeout.
 */
const live = contractTarget() === 'live';
const maxRetryAfterMs = contractNumber(process.env, 'CONTRACT_MAX_RETRY_AFTER') * 1000;
const contractTimeout = live ? Math.max(15 * 60_000, 4 * maxRetryAfterMs + 5 * 60_000) : 30_000;
/**
 * vitest's JUnit file, one per target so a live run never overwrites the mock run's: `reports/mock/junit.xml`,
 * `reports/live/junit.xml` (next to the contract's own `coverage-junit.xml`); the harness project's is
 * `reports/harness/junit.xml`. CONTRACT_REPORTS_DIR moves all of them.
 */
const harnessOnly = process.argv.some((arg, i) => arg === 'harness' && process.argv[i - 1] === '--project');
const junitFile = `${REPORTS_DIR}/${harnessOnly ? 'harness' : live ? 'live' : 'mock'}/junit.xml`;

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'harness',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.contract.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['src/**/*.contract.test.ts'],
          globalSetup: ['./src/run/global-setup.ts'],
          testTimeout: contractTimeout,
          hookTimeout: live ? contractTimeout : 120_000,
          maxConcurrency: 8,
          // A live run with writes changes records of one store from the REST and the tool-server files: one file
          // at a time, so neither sees the other's records in its before/after counts.
          fileParallelism: !(live && writeServices().size > 0),
        },
      },
    ],
    // Live runs also print their progress (checks done of total, per contract file) every 15 s.
    reporters: [
      'default',
      ['junit', { outputFile: junitFile }],
      ...(live && !harnessOnly ? [new ProgressReporter()] : []),
    ],
  },
});
