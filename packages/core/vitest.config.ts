import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples import the package by name, as users do; here that name means the sources.
  resolve: {
    alias: [
      { find: /^@agent-apis\/core$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^@agent-apis\/core\/([a-z-]+)$/, replacement: fileURLToPath(new URL('./src/$1.ts', import.meta.url)) },
    ],
  },
  test: { include: ['src/**/*.test.ts'] },
});
