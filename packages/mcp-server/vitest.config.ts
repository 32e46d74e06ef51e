import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples import the package by its published name; in tests that name means the sources.
  resolve: {
    alias: [
      { find: /^@agent-apis\/mcp-server$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  // Generous limits: on a loaded 2-core CI machine spawning the server and the conformance suite takes seconds.
  test: { testTimeout: 60_000, hookTimeout: 60_000, include: ['src/**/*.test.ts'] },
});
