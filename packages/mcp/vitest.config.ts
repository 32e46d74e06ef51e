import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples import the package by its published name; in tests that name means the sources.
  resolve: {
    alias: [{ find: /^@agent-apis\/mcp$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: { include: ['src/**/*.test.ts'] },
});
