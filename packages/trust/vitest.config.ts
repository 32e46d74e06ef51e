import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const fromPackage = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // The examples import the package by its published name; in tests that name means the sources.
    alias: [
      { find: /^@agent-apis\/trust$/, replacement: fromPackage('./src/index.ts') },
      { find: /^@agent-apis\/trust\/msw$/, replacement: fromPackage('./src/gen/msw.gen.ts') },
    ],
  },
  // Generous limits: on a loaded 2-core CI machine the first dynamic import of the zod schemas takes seconds.
  test: { testTimeout: 30_000, hookTimeout: 30_000, include: ['src/**/*.test.ts'] },
});
