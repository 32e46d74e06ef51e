/**
 * The consumer as a Cloudflare Worker (bundled, then run by workerd through Miniflare). It imports every entry
 * point of every package (`entry-points.mjs`, written by the test from the packages' `exports`), so a module-scope
 * side effect anywhere fails the load; then each request runs the same calls as the other runtimes.
 */
import { runCalls } from './calls.mjs';
import { config } from './config.mjs';
import { entryPoints } from './entry-points.mjs';

export default {
  async fetch() {
    const loaded = Object.fromEntries(
      Object.entries(entryPoints).map(([name, module]) => [name, Object.keys(module).length]),
    );
    return Response.json({ loaded, results: await runCalls(config) });
  },
};
