import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // README examples import the package by name, as users do; point the name at the sources.
    alias: [
      { find: /^@agent-apis\/directory\/msw$/, replacement: source('./src/gen/msw.gen.ts') },
      { find: /^@agent-apis\/directory$/, replacement: source('./src/index.ts') },
    ],
  },
  // Generous limits: on a loaded 2-core CI machine the first dynamic import of the zod schemas takes seconds.
  test: { testTimeout: 30_000, hookTimeout: 30_000, include: ['src/**/*.test.ts'], unstubEnvs: true },
});
