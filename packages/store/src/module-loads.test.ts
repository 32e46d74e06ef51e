import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it('loads four modules at import and none at the first call', async () => {
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
    // Node resolves the packages' `node` condition: the Node layout, where a cold process pays for every file it
    // loads (more than for compiling 30 kB of code), so the exact lists are the guarantee: the store's client with its
    // limiter, core's `./service` entry (which holds the call path too), core's root (the error classes the store
    // re-exports) and core's `./call` entry (the limiter); the first call loads nothing more.
    expect(loadedAtImport.sort()).toEqual(
      ['core/node/call.js', 'core/node/index.js', 'core/node/service.js', 'store/node/index.js'].sort(),
    );
    expect(loadedByFirstCall).toEqual([]);
    // Never the Redis tiers nobody asked for.
    const loaded = [...loadedAtImport, ...loadedByFirstCall];
    expect(loaded).not.toContain('core/node/http-cache-redis.js');
    expect(loaded).not.toContain('store/node/rate-limit-fleet.js');
  });
});
