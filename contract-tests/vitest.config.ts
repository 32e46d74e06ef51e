import { defineConfig } from 'vitest/config';

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
          globalSetup: ['./src/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          maxConcurrency: 8,
          // A live run with writes changes records of one store from the REST and the tool-server files: one file
          // at a time, so neither sees the other's records in its before/after counts.
          fileParallelism: !(process.env.CONTRACT_TARGET === 'live' && process.env.CONTRACT_ALLOW_WRITES),
        },
      },
    ],
    reporters: ['default', ['junit', { outputFile: './reports/junit.xml' }]],
  },
});
