import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'harness', include: ['src/**/*.test.ts'], testTimeout: 60_000 },
      },
    ],
  },
});
