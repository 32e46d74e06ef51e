/**
 * Section 6, trust guard: what `guardedFetch` adds to a fetch once the decision is cached, and how many
 * decide calls 1,000 guarded fetches over 20 domains make inside one validity window. A local server plays
 * both the trust service (counting decide calls per domain) and the sites; the fetch handed to the guard
 * sends every site's request to it, keeping the site's host and path.
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';
import { TrustClient } from '@agent-apis/trust';
import { cannedDecision } from './canned-server.ts';
import { median, ratio, round, runPool, timeMs } from './measure.ts';

const OVERHEAD_REQUESTS = 2_000;
const OVERHEAD_RUNS = 7;
const GUARDED_FETCHES = 1_000;
const DOMAINS = 20;
const CONCURRENCY = 50;

/** Median µs per call, plain and guarded, one call after the other, with the decision already cached. */
export interface GuardOverhead {
  sites: 'local server' | 'in-memory fetch';
  plainFetchUs: number;
  guardedFetchUs: number;
  /** guarded / plain */
  ratio: number;
}

export interface TrustGuardResult {
  overhead: GuardOverhead[];
  guardedFetches: number;
  domains: number;
  /** Decide calls the service received for those fetches; one per domain is the target. */
  decideCalls: number;
  /** The most decide calls any single domain caused. */
  maxDecideCallsPerDomain: number;
}

function trustAndSites(): { server: Server; decideCalls: Map<string, number> } {
  const decideCalls = new Map<string, number>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/api/v1/decide') {
        const domain = (JSON.parse(body) as { target: { value: string } }).target.value;
        decideCalls.set(domain, (decideCalls.get(domain) ?? 0) + 1);
        // A one-hour window: every fetch of the run falls inside it.
        const decision = cannedDecision(3_600);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(decision));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`page of ${request.headers['x-site']}`);
    });
  });
  return { server, decideCalls };
}

/** Plain `siteFetch` against the same fetch behind a guard whose decision is cached; the order alternates per run. */
async function guardOverhead(
  sites: GuardOverhead['sites'],
  siteFetch: typeof fetch,
  trust: TrustClient,
  url: string,
): Promise<GuardOverhead> {
  const guarded = trust.guardedFetch(siteFetch);
  await guarded(url).then((page) => page.text());
  const timeCalls = (send: typeof fetch) =>
    timeMs(() => runPool(OVERHEAD_REQUESTS, 1, () => send(url).then((page) => page.text())));
  const plainRuns: number[] = [];
  const guardedRuns: number[] = [];
  for (let run = -1; run < OVERHEAD_RUNS; run++) {
    const guardedFirst = run % 2 === 0;
    const first = await timeCalls(guardedFirst ? guarded : siteFetch);
    const second = await timeCalls(guardedFirst ? siteFetch : guarded);
    if (run < 0) continue;
    plainRuns.push(guardedFirst ? second : first);
    guardedRuns.push(guardedFirst ? first : second);
  }
  const perCallUs = (runs: number[]) => round((median(runs) / OVERHEAD_REQUESTS) * 1_000, 2);
  return {
    sites,
    plainFetchUs: perCallUs(plainRuns),
    guardedFetchUs: perCallUs(guardedRuns),
    ratio: ratio(median(guardedRuns), median(plainRuns)),
  };
}

export async function measureTrustGuard(): Promise<TrustGuardResult> {
  const { server, decideCalls } = trustAndSites();
  const { origin, close } = await listenOnLoopback(server);
  try {
    /** The agent's own fetch: every site is served by the local server. */
    const siteFetch: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      return fetch(`${origin}${url.pathname}${url.search}`, { headers: { 'x-site': url.host } });
    };
    const page = (index: number) => `https://site-${index % DOMAINS}.example/page/${index}`;
    const trust = new TrustClient({ baseUrl: `${origin}/api`, apiKey: 'sk_ent0_bench_guard' });
    const inMemorySite: typeof fetch = async () => new Response('page');
    const overhead = [
      await guardOverhead('local server', siteFetch, trust, page(0)),
      await guardOverhead('in-memory fetch', inMemorySite, trust, page(0)),
    ];

    decideCalls.clear();
    const freshTrust = new TrustClient({ baseUrl: `${origin}/api`, apiKey: 'sk_ent0_bench_guard' });
    const freshGuarded = freshTrust.guardedFetch(siteFetch);
    await runPool(GUARDED_FETCHES, CONCURRENCY, (index) => freshGuarded(page(index)).then((page) => page.text()));
    const perDomain = [...decideCalls.values()];
    return {
      overhead,
      guardedFetches: GUARDED_FETCHES,
      domains: DOMAINS,
      decideCalls: perDomain.reduce((sum, calls) => sum + calls, 0),
      maxDecideCallsPerDomain: Math.max(0, ...perDomain),
    };
  } finally {
    await close();
  }
}
