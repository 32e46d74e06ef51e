/**
 * A given `HttpCache` whose engine never loads (its chunk never arrives): the client loads the engine with its call
 * path, so the first calls keep to their own timeout and signal. Apart from api-client.test.ts because it swaps
 * modules (`vi.resetModules`), which would split the error classes of the tests after it.
 */
import { jsonFetch } from '@agent-apis/test-utils/fetch';
import { describe, expect, it, vi } from 'vitest';
import { getThing, testService as service } from './test-support.js';

describe('ApiClient with an HttpCache whose engine does not load', () => {
  it("loads a given HttpCache's engine with the call path, within the first call's timeout and signal", async () => {
    vi.resetModules();
    // The engine's chunk never arrives (a browser that cannot fetch it).
    vi.doMock('./internal/fleet/http-cache-engine.js', () => new Promise(() => undefined));
    try {
      const { ApiClient: FreshClient } = await import('./api-client.js');
      const { HttpCache } = await import('./http-cache.js');
      const errors = await import('./errors.js');
      const fetch = jsonFetch({ ok: true });
      const client = new FreshClient(
        { fetch, maxRetries: 0 },
        { client: 'TestClient', baseUrl: 'https://api.test', ...service, cache: new HttpCache() },
      );
      const timedOut = await client.request(getThing, { path: { name: 'a' }, timeout: 30 }).catch((caught) => caught);
      expect(timedOut).toBeInstanceOf(errors.ConfigurationError);
      const controller = new AbortController();
      const call = client.request(getThing, { path: { name: 'a' }, signal: controller.signal });
      controller.abort();
      await expect(call).rejects.toBeInstanceOf(errors.APIUserAbortError);
      expect(fetch).not.toHaveBeenCalled();
    } finally {
      vi.doUnmock('./internal/fleet/http-cache-engine.js');
      vi.resetModules();
    }
  });
});
