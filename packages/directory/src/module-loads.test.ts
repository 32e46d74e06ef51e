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
      const { DirectoryClient } = await import('@agent-apis/directory');
      const client = new DirectoryClient({ baseUrl: origin });
      mark();
      await client.stats();
      `,
      { jsonAnswer: '{"servers":1}' },
    );
    const loadedAtImport = packageModules(atImport);
    const loadedByFirstCall = packageModules(firstCall);
    // Node resolves the packages' `node` condition: the Node layout, where a cold process pays for every file it
    // loads (more than for compiling 30 kB of code), so the exact lists are the guarantee: the client, core's `./service`
    // entry (which holds the call path too), core's root (the error classes, and the cache class with its engine) and
    // core's `./call` entry (the logger the cache wiring reports with); the first call loads nothing more.
    expect(loadedAtImport.sort()).toEqual(
      ['core/node/call.js', 'core/node/index.js', 'core/node/service.js', 'directory/node/index.js'].sort(),
    );
    expect(loadedByFirstCall).toEqual([]);
    // Never the Redis tier nobody asked for.
    expect(loadedAtImport).not.toContain('core/node/http-cache-redis.js');
    expect(loadedAtImport).not.toContain('directory/node/cache.js');
  });
});
