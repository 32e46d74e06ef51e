import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples import the package by its published name; in tests that name means the sources.
  resolve: {
    alias: [{ find: /^@agent-apis\/mcp$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  // Generous limits: on a loaded 2-core CI machine the first dynamic import of the zod schemas takes seconds.
  test: { testTimeout: 30_000, hookTimeout: 30_000, include: ['src/**/*.test.ts'] },
});
