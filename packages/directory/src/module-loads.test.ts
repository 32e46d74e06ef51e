import { fileURLToPath } from 'node:url';
import { modulesLoaded, packageModules } from '@agent-apis/test-utils/module-loads';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('what Node loads for the built client', () => {
  it("loads the client and core's root at import, the call path and the cache's engine at the first call", async () => {
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
    // One layout for Node and bundlers: the exact lists are the guarantee. At import the client, core's root (the
    // error classes and `HttpCache`) and `./service` with the small chunks they share; at the first call the call path
    // and the cache's engine.
    expect(packageModules(atImport).sort()).toEqual(
      [
        'core/index.js',
        'core/internal/call/answer-errors.js',
        'core/internal/call/redact-text.js',
        'core/internal/call/redirect.js',
        'core/internal/fleet/cache-entry.js',
        'core/service.js',
        'directory/index.js',
      ].sort(),
    );
    expect(packageModules(firstCall).sort()).toEqual(
      ['core/http-cache-engine.js', 'core/internal/call/attempt.js', 'core/send-call.js'].sort(),
    );
    // Never the Redis tier nobody asked for.
    expect([...atImport, ...firstCall].join('\n')).not.toContain('redis');
  });
});
