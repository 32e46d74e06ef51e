import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it("loads the call path and the cache at the first call through core's entries, never core's index", async () => {
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
    expect(loadedAtImport).toContain('directory/index.js');
    expect(loadedAtImport).not.toContain('core/send-call.js');
    expect(loadedAtImport).not.toContain('core/internal/call/attempt.js');
    // The first call loads the transport and the default HTTP cache, and with them nothing of core it does not use:
    // Node loads every module an index names (the rate limiter, Redis, response validation), and the call waits.
    expect(loadedByFirstCall).toEqual(
      expect.arrayContaining(['core/send-call.js', 'core/internal/call/attempt.js', 'directory/cache.js']),
    );
    expect([...loadedAtImport, ...loadedByFirstCall]).not.toContain('core/index.js');
    expect(loadedByFirstCall).not.toContain('core/rate-limit.js');
  });
});
