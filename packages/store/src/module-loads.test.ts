import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it("loads the client and core's root at import, the call path and the limiter at the first call", async () => {
    // Segments: the loopback server's start, the import and construction, the first call.
    const [, atImport = [], firstCall = []] = await modulesLoaded(
      packageDir,
      `
      const { StoreClient } = await import('@agent-apis/store');
      const client = new StoreClient({ baseUrl: origin + '/v1', login: 'module-loads', authToken: 'module-loads-token' });
      mark();
      await client.api.listProducts();
      `,
      { jsonAnswer: '[]' },
    );
    // One layout for Node and bundlers: the exact lists are the guarantee. At import the store's client, core's root
    // (the error classes it re-exports) and `./service` with the small chunks they share; at the first call the call
    // path, core's `./call` entry (the limiter) and the store's limits.
    expect(packageModules(atImport).sort()).toEqual(
      [
        'core/index.js',
        'core/internal/call/answer-errors.js',
        'core/internal/call/redact-text.js',
        'core/internal/call/redirect.js',
        'core/internal/fleet/cache-entry.js',
        'core/service.js',
        'store/index.js',
        'store/rate-limit-options.js',
      ].sort(),
    );
    expect(packageModules(firstCall).sort()).toEqual(
      [
        'core/call.js',
        'core/internal/call/attempt.js',
        'core/redis-values.js',
        'core/send-call.js',
        'store/rate-limit.js',
      ].sort(),
    );
    // Never the HTTP cache the store does not use, nor the fleet limiter nobody asked for.
    const loaded = [...atImport, ...firstCall].join('\n');
    expect(loaded).not.toContain('http-cache');
    expect(loaded).not.toContain('rate-limit-fleet');
  });
});
