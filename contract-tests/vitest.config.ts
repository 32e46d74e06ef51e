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
        },
      },
    ],
    reporters: ['default', ['junit', { outputFile: './reports/junit.xml' }]],
  },
});
