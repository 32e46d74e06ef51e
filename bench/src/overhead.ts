/**
 * Section 1, client overhead: the same requests through each client and through plain `fetch`, against one
 * canned local server, one after the other and 50 at a time. Variants take turns run by run so that drift
 * (other processes, JIT, GC) spreads evenly; each figure is the median over the runs. A third mode sends the
 * same calls to an in-memory `fetch` (no network), which isolates the work each client adds per call.
 */
import { DirectoryClient } from '@agent-apis/directory';
import { StoreClient } from '@agent-apis/store';
import { DEFAULT_INTERACTION, DEFAULT_POLICY, TrustClient } from '@agent-apis/trust';
import createOpenapiFetchClient from 'openapi-fetch';
import type { paths as DirectoryPaths } from '../generated/directory.d.ts';
import { inMemoryFetch, startCannedServer } from './canned-server.ts';
import { median, ratio, round, runPool, timeMs } from './measure.ts';

/** Requests per run. */
const REQUESTS = 1_000;
/** Measured runs per variant and mode (after one warm-up run). */
const RUNS = 7;
/** In-flight requests of the concurrent mode. */
const CONCURRENCY = 50;

const STORE_LOGIN = 'bench-login';
const STORE_TOKEN = 'bench-auth-token';
const TRUST_KEY = 'sk_ent0_bench_key';

type Mode = 'sequential' | `concurrency ${number}` | 'in-memory fetch, sequential';

interface Variant {
  group: 'directory' | 'store' | 'trust';
  name: string;
  /** The plain-fetch variant of the group is the baseline of the others. */
  baseline?: true;
  call: () => Promise<unknown>;
}

export interface OverheadRow {
  group: string;
  variant: string;
  mode: Mode;
  medianMs: number;
  perRequestUs: number;
  /** Median time divided by the plain-fetch median of the same group and mode. */
  ratioToRaw: number;
}

/** Every variant, each sending through `send` (the global fetch, or the in-memory one). */
function variants(origin: string, send: typeof fetch): Variant[] {
  const directory = new DirectoryClient({ baseUrl: origin, fetch: send });
  const openapiFetch = createOpenapiFetchClient<DirectoryPaths>({ baseUrl: origin, fetch: send });
  const store = new StoreClient({
    baseUrl: `${origin}/v1`,
    login: STORE_LOGIN,
    authToken: STORE_TOKEN,
    rateLimit: false,
    fetch: send,
  });
  const trust = new TrustClient({ baseUrl: `${origin}/api`, apiKey: TRUST_KEY, cache: false, fetch: send });
  const basic = `Basic ${btoa(`${STORE_LOGIN}:${STORE_TOKEN}`)}`;
  const decideBody = JSON.stringify({
    target: { type: 'domain', value: 'github.com' },
    interaction: DEFAULT_INTERACTION,
    policy: DEFAULT_POLICY,
  });
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`status ${response.status}`);
    return response.json();
  };
  return [
    { group: 'directory', name: 'fetch', baseline: true, call: () => send(`${origin}/api/stats`).then(json) },
    { group: 'directory', name: 'DirectoryClient.stats()', call: () => directory.stats() },
    {
      group: 'directory',
      name: 'openapi-fetch GET /api/stats',
      call: async () => {
        const { data, error } = await openapiFetch.GET('/api/stats');
        if (error !== undefined || data === undefined) throw new Error('openapi-fetch failed');
        return data;
      },
    },
    {
      group: 'store',
      name: 'fetch',
      baseline: true,
      call: () => send(`${origin}/v1/products.json?limit=10&page=1`, { headers: { authorization: basic } }).then(json),
    },
    {
      group: 'store',
      name: 'StoreClient.api.listProducts()',
      call: () => store.api.listProducts({ query: { limit: 10, page: 1 } }),
    },
    {
      group: 'trust',
      name: 'fetch',
      baseline: true,
      call: () =>
        send(`${origin}/api/v1/decide`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': TRUST_KEY },
          body: decideBody,
        }).then(json),
    },
    { group: 'trust', name: 'TrustClient.decide() (cache off)', call: () => trust.decide('github.com') },
  ];
}

/** Medians of every variant in one mode, with each one's ratio to the plain-fetch variant of its group. */
async function measureMode(all: readonly Variant[], mode: Mode, concurrency: number): Promise<OverheadRow[]> {
  const samples = new Map<Variant, number[]>(all.map((variant) => [variant, []]));
  for (let run = -1; run < RUNS; run++) {
    for (const variant of all) {
      const ms = await timeMs(() => runPool(REQUESTS, concurrency, variant.call));
      if (run >= 0) samples.get(variant)?.push(ms);
    }
  }
  return all.map((variant) => {
    const baseline = all.find((other) => other.group === variant.group && other.baseline) ?? variant;
    const ownMedian = median(samples.get(variant) ?? []);
    return {
      group: variant.group,
      variant: variant.name,
      mode,
      medianMs: round(ownMedian),
      perRequestUs: round((ownMedian / REQUESTS) * 1_000),
      ratioToRaw: ratio(ownMedian, median(samples.get(baseline) ?? [])),
    };
  });
}

export async function measureOverhead(): Promise<OverheadRow[]> {
  const server = await startCannedServer();
  try {
    const overNetwork = variants(server.origin, (input, init) => fetch(input, init));
    return [
      ...(await measureMode(overNetwork, 'sequential', 1)),
      ...(await measureMode(overNetwork, `concurrency ${CONCURRENCY}`, CONCURRENCY)),
      ...(await measureMode(variants(server.origin, inMemoryFetch()), 'in-memory fetch, sequential', 1)),
    ];
  } finally {
    server.stop();
  }
}

export const OVERHEAD_SETTINGS = { requests: REQUESTS, runs: RUNS, concurrency: CONCURRENCY };
