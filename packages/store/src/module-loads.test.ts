import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it("loads the call path and the rate limiter at the first call through core's entries, never core's index", async () => {
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
    const loadedAtImport = packageModules(atImport);
    const loadedByFirstCall = packageModules(firstCall);
    expect(loadedAtImport).toContain('store/index.js');
    // Of the store's own modules, the import loads its index and at most the rate-limit constants the limiter shares
    // with it (each module file costs a cold process about a millisecond).
    const storeModules = loadedAtImport.filter((module) => module.startsWith('store/'));
    expect(storeModules.filter((module) => module !== 'store/rate-limit-options.js')).toEqual(['store/index.js']);
    expect(loadedAtImport).not.toContain('core/send-call.js');
    expect(loadedAtImport).not.toContain('core/internal/call/attempt.js');
    // The first call loads the transport, the limiter and the ban guard, and with them nothing of core it does not
    // use: Node loads every module an index names (the HTTP cache, Redis, response validation), and the call waits.
    expect(loadedByFirstCall).toEqual(
      expect.arrayContaining([
        'core/send-call.js',
        'core/internal/call/attempt.js',
        'store/rate-limit.js',
        'core/rate-limit.js',
      ]),
    );
    expect([...loadedAtImport, ...loadedByFirstCall]).not.toContain('core/index.js');
    expect(loadedByFirstCall).not.toContain('core/http-cache.js');
  });
});
