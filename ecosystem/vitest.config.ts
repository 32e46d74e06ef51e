import { defineConfig } from 'vitest/config';

// One file, one matrix: packing and installing take most of the time, and the runtimes run side by side in it.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 240_000 },
});
