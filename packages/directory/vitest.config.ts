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
  test: { include: ['src/**/*.test.ts'], unstubEnvs: true },
});
