import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it("loads six modules at import and five more at the first call, never core's index", async () => {
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
    // A cold process pays for every module it loads (about as much as for pre-parsing 20 kB of code), so the exact
    // lists are the guarantee: the store's index and the rate-limit constants its limiter shares with it, core's
    // client entry (which holds what core's entries share) and the errors; then the call path (its own chunk and the
    // one it shares with core's first-call entries), the redirect rule, the store's limiter and core's.
    expect(loadedAtImport.sort()).toEqual(
      [
        'core/client.js',
        'core/errors.js',
        'core/internal/call/answer-errors.js',
        'core/internal/call/redact-text.js',
        'store/index.js',
        'store/rate-limit-options.js',
      ].sort(),
    );
    expect(loadedByFirstCall.sort()).toEqual(
      [
        'core/internal/call/attempt.js',
        'core/rate-limit.js',
        'core/redirect.js',
        'core/send-call.js',
        'store/rate-limit.js',
      ].sort(),
    );
    // Never core's index (Node loads every module an index names), nor the HTTP cache the store does not use.
    expect([...loadedAtImport, ...loadedByFirstCall]).not.toContain('core/index.js');
    expect(loadedByFirstCall).not.toContain('core/http-cache.js');
  });
});
