import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The examples import the package by name, as users do; here that name means the sources.
  resolve: {
    alias: [
      { find: /^@agent-apis\/store\/msw$/, replacement: fromHere('./src/gen/msw.gen.ts') },
      { find: /^@agent-apis\/store$/, replacement: fromHere('./src/index.ts') },
    ],
  },
  test: { include: ['src/**/*.test.ts'] },
});
