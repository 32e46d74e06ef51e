import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Each generation of the store SDK takes a few seconds.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
