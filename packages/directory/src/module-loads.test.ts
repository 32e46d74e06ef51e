import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it("loads four modules at import and none at the first call, never core's index", async () => {
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
    // loads (more than for compiling 30 kB of code), so the exact lists are the guarantee: the client, core's client
    // entry (which holds the call path too), the errors (re-exported from it), the cache class with its engine; the
    // first call loads nothing more.
    expect(loadedAtImport.sort()).toEqual(
      ['core/node/client.js', 'core/node/errors.js', 'core/node/http-cache.js', 'directory/node/index.js'].sort(),
    );
    expect(loadedByFirstCall).toEqual([]);
    // Never core's index (Node loads every module an index names), nor the Redis tier nobody asked for.
    expect(loadedAtImport).not.toContain('core/node/index.js');
    expect(loadedAtImport).not.toContain('directory/node/cache.js');
  });
});
