import { defineConfig } from 'vitest/config';

// One file, one matrix: packing and installing take most of the time, and the runtimes run side by side in it.
export default defineConfig({
  // Timeouts are backstops against a hang, never speed bounds: a whole tsc run or an install takes minutes on a
  // loaded 2-core machine with a second `pnpm test` beside it.
  test: { include: ['src/**/*.test.ts'], testTimeout: 600_000, hookTimeout: 900_000 },
});
