import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // A backstop against a hang, never a speed bound: syncs and diffs of whole specs take minutes on a loaded
    // 2-core machine with a second `pnpm test` beside them.
    testTimeout: 300_000,
  },
});
