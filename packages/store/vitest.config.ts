import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The examples import the package by name, as users do; here that name means the sources.
  resolve: {
    alias: [
      { find: /^@agent-apis\/store\/msw$/, replacement: fromHere('./src/gen/msw.gen.ts') },
      { find: /^@agent-apis\/store\/webhooks$/, replacement: fromHere('./src/webhooks.ts') },
      { find: /^@agent-apis\/store$/, replacement: fromHere('./src/index.ts') },
    ],
  },
  // Generous limits: on a loaded 2-core CI machine the first dynamic import of the zod schemas takes seconds.
  test: { testTimeout: 30_000, hookTimeout: 30_000, include: ['src/**/*.test.ts'] },
});
