import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it("loads six modules at import and four more at the first call, never core's index", async () => {
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
    // A cold process pays for every module it loads (about as much as for pre-parsing 20 kB of code), so the
    // exact lists are the guarantee: the client, core's client entry (which holds what core's entries share), the errors
    // (the classes of answers apart, so that a bundler can leave them to the first call), the cache class; then the call path in one chunk, the redirect rule, the cache's engine.
    expect(loadedAtImport.sort()).toEqual(
      [
        'core/client.js',
        'core/errors.js',
        'core/http-cache.js',
        'core/internal/call/answer-errors.js',
        'core/internal/call/redact-text.js',
        'directory/index.js',
      ].sort(),
    );
    expect(loadedByFirstCall.sort()).toEqual(
      ['core/http-cache-engine.js', 'core/internal/call/attempt.js', 'core/redirect.js', 'core/send-call.js'].sort(),
    );
    // Never core's index (Node loads every module an index names), nor the rate limiter the directory does not use.
    expect([...loadedAtImport, ...loadedByFirstCall]).not.toContain('core/index.js');
    expect(loadedByFirstCall).not.toContain('core/rate-limit.js');
  });
});
