/**
 * Section 1, client overhead: the same requests through each client and through plain `fetch`, against one
 * canned local server, one after the other and 50 at a time. Variants take turns run by run, in alternating order,
 * so that drift (other processes, JIT, GC) spreads evenly; each figure is the median over the runs. A third mode sends the
 * same calls to an in-memory `fetch` (no network), which isolates the work each client adds per call; that mode
 * counts the process's CPU time rather than wall time, so other work on a shared machine does not inflate it.
 */

import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { DirectoryClient } from '@agent-apis/directory';
import { StoreClient } from '@agent-apis/store';
import { listenOnLoopback } from '@agent-apis/test-utils/processes';
import { DEFAULT_INTERACTION, DEFAULT_POLICY, TrustClient } from '@agent-apis/trust';
import createOpenapiFetchClient from 'openapi-fetch';
import type { paths as DirectoryPaths } from '../generated/directory.d.ts';
import { inMemoryFetch, startCannedServer } from './canned-server.ts';
import { cpuMs, median, ratio, round, runPool, timeMs } from './measure.ts';
import { BENCH_DIR } from './paths.ts';

const run = promisify(execFile);

/** Requests per run. */
const REQUESTS = 250;
/**
 * Measured runs per variant and mode (after one warm-up run). Many short runs rather than a few long ones: each
 * ratio is taken within one run, between neighbours in time, so drift that spans runs cancels out.
 */
const RUNS = 61;
/** In-flight requests of the concurrent mode. */
const CONCURRENCY = 50;

const STORE_LOGIN = 'bench-login';
const STORE_TOKEN = 'bench-auth-token';
const TRUST_KEY = 'sk_ent0_bench_key';

type Mode = 'sequential' | `concurrency ${number}` | 'in-memory fetch, sequential' | 'large response' | 'cold start';

interface Variant {
  group: 'directory' | 'store' | 'trust';
  name: string;
  /** The plain-fetch variant of the group is the baseline of the others. */
  baseline?: true;
  /** The group's openapi-fetch variant, the peer of the clients. */
  peer?: true;
  call: () => Promise<unknown>;
}

export interface OverheadRow {
  group: string;
  variant: string;
  mode: Mode;
  medianMs: number;
  perRequestUs: number;
  /**
   * Median over the runs of this variant's time divided by the plain-fetch time of the same group, mode and run
   * (a paired ratio: both ran moments apart, so drift between runs cancels).
   */
  ratioToRaw: number;
  /** The same paired median against the group's openapi-fetch variant, for the clients. */
  ratioToOpenapiFetch?: number;
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
  // Untyped peers for the store and trust calls: the types add no runtime work.
  // biome-ignore lint/suspicious/noExplicitAny: openapi-fetch without generated paths, for the runtime cost only.
  const openapiFetchAny = createOpenapiFetchClient<any>({ baseUrl: origin, fetch: send });
  const basic = `Basic ${btoa(`${STORE_LOGIN}:${STORE_TOKEN}`)}`;
  const decideRequest = {
    target: { type: 'domain', value: 'github.com' },
    interaction: DEFAULT_INTERACTION,
    policy: DEFAULT_POLICY,
  };
  const decideBody = JSON.stringify(decideRequest);
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
      peer: true,
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
      group: 'store',
      name: 'openapi-fetch GET /v1/products.json',
      peer: true,
      call: async () => {
        const { data, error } = await openapiFetchAny.GET('/v1/products.json', {
          params: { query: { limit: 10, page: 1 } },
          headers: { authorization: basic },
        });
        if (error !== undefined || data === undefined) throw new Error('openapi-fetch failed');
        return data;
      },
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
    {
      group: 'trust',
      name: 'openapi-fetch POST /api/v1/decide',
      peer: true,
      call: async () => {
        const { data, error } = await openapiFetchAny.POST('/api/v1/decide', {
          body: decideRequest,
          headers: { 'x-api-key': TRUST_KEY },
        });
        if (error !== undefined || data === undefined) throw new Error('openapi-fetch failed');
        return data;
      },
    },
  ];
}

/**
 * Medians of every variant in one mode, with each one's paired ratio to the plain-fetch variant of its group (and,
 * for the clients, to its openapi-fetch variant). Each group also runs its plain fetch a second time as a control:
 * its ratio to the first shows how far apart two identical variants land, the noise floor of every other ratio.
 */
async function measureMode(
  variantsOfMode: readonly Variant[],
  mode: Mode,
  concurrency: number,
): Promise<OverheadRow[]> {
  const all = withControls(variantsOfMode);
  const samples = new Map<Variant, number[]>(all.map((variant) => [variant, []]));
  for (let run = -1; run < RUNS; run++) {
    // Every other run goes through the variants backwards, so no variant always follows the same one (whose garbage
    // it would collect) or always runs first.
    for (const variant of run % 2 === 0 ? [...all].reverse() : all) {
      const task = () => runPool(REQUESTS, concurrency, variant.call);
      // In memory nothing is waited on: CPU time is the work done, however loaded the machine.
      const ms = mode === 'in-memory fetch, sequential' ? await cpuMs(task) : await timeMs(task);
      if (run >= 0) samples.get(variant)?.push(ms);
    }
  }
  const pairedRatio = (variant: Variant, reference: Variant | undefined) => {
    const own = samples.get(variant) ?? [];
    const theirs = reference ? (samples.get(reference) ?? []) : [];
    return theirs.length === own.length && own.length > 0
      ? ratio(median(own.map((ms, run) => ms / (theirs[run] as number))), 1)
      : undefined;
  };
  return all.map((variant) => {
    const baseline = all.find((other) => other.group === variant.group && other.baseline) ?? variant;
    const peer = all.find((other) => other.group === variant.group && other.peer);
    const ownMedian = median(samples.get(variant) ?? []);
    const toPeer = variant.baseline || variant.peer || isControl(variant) ? undefined : pairedRatio(variant, peer);
    return {
      group: variant.group,
      variant: variant.name,
      mode,
      medianMs: round(ownMedian),
      perRequestUs: round((ownMedian / REQUESTS) * 1_000),
      ratioToRaw: pairedRatio(variant, baseline) ?? 1,
      ...(toPeer === undefined ? {} : { ratioToOpenapiFetch: toPeer }),
    };
  });
}

/** The name of the control variant: the group's plain fetch, run a second time. */
export const CONTROL_VARIANT = 'fetch, again (control)';

function isControl(variant: Variant): boolean {
  return variant.name === CONTROL_VARIANT;
}

/** The variants with a control after each group's baseline. */
function withControls(variantsOfMode: readonly Variant[]): Variant[] {
  return variantsOfMode.flatMap((variant) =>
    variant.baseline ? [variant, { group: variant.group, name: CONTROL_VARIANT, call: variant.call }] : [variant],
  );
}

export async function measureOverhead(): Promise<OverheadRow[]> {
  const server = await startCannedServer();
  let rows: OverheadRow[];
  try {
    const overNetwork = variants(server.origin, (input, init) => fetch(input, init));
    rows = [
      ...(await measureMode(overNetwork, 'sequential', 1)),
      ...(await measureMode(overNetwork, `concurrency ${CONCURRENCY}`, CONCURRENCY)),
      ...(await measureMode(variants(server.origin, inMemoryFetch()), 'in-memory fetch, sequential', 1)),
    ];
  } finally {
    server.stop();
  }
  const large = await measureLargeResponse();
  console.log(
    `one ${mibOf(LARGE_RESPONSE_BYTES)} MiB JSON answer through StoreClient (maxResponseBytes ${mibOf(LARGE_RESPONSE_CAP)} MiB): ` +
      `peak RSS growth ${large.peakGrowthMiB} MiB = ${large.ratioToCap}× the cap, ${large.ratioToBody}× the body; ` +
      `a ${mibOf(OVERSIZED_RESPONSE_BYTES)} MiB answer is refused (${large.oversizedError}) with peak growth ${large.oversizedPeakGrowthMiB} MiB; ` +
      `plain fetch(url).json() of the 50 MiB answer: ${large.plainFetchPeakGrowthMiB} MiB`,
  );
  return [...rows, large.row];
}

/** Body size of the large-response measurement: 50 MiB of JSON. */
const LARGE_RESPONSE_BYTES = 50 * 1024 * 1024;
/** The cap the client is given for it. */
const LARGE_RESPONSE_CAP = 64 * 1024 * 1024;
/** An answer past the cap, which must be refused at the cap's cost. */
const OVERSIZED_RESPONSE_BYTES = 200 * 1024 * 1024;

function mibOf(bytes: number): number {
  return round(bytes / 1024 ** 2, 1);
}

/** What one large call cost in a fresh process. */
interface LargeCall {
  /** Peak RSS of the process (VmHWM) minus RSS just before the call, MiB. */
  peakMiB: number;
  ms: number;
  error?: string;
}

/**
 * Runs one store listing call in a fresh Node process (so that no earlier allocation hides in the baseline) and
 * reports its peak memory growth.
 */
async function largeCallInChildProcess(baseUrl: string, operation: string): Promise<LargeCall> {
  // `plainFetch` is the reference: fetch(url).then((response) => response.json()), no client.
  const call =
    operation === 'plainFetch'
      ? `await (await fetch(${JSON.stringify(`${baseUrl}/products.json`)})).json();`
      : `await store.api.${operation}();`;
  // Peak RSS is read from VmHWM (Linux): unlike `resourceUsage().maxRSS`, it is not inherited from the parent
  // that forked the child, so it starts at the child's own size.
  const script = `
import { readFileSync } from 'node:fs';
import { StoreClient } from '@agent-apis/store';
const peakRss = () => {
  try { return Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024; }
  catch { return process.resourceUsage().maxRSS * 1024; }
};
const store = new StoreClient({ baseUrl: ${JSON.stringify(baseUrl)}, login: 'bench-login', authToken: 'bench-auth-token',
  rateLimit: false, maxRetries: 0, timeout: 120000, maxResponseBytes: ${LARGE_RESPONSE_CAP} });
const before = process.memoryUsage.rss();
const started = performance.now();
let error;
try { ${call} } catch (caught) { error = caught.name; }
const ms = performance.now() - started;
console.log(JSON.stringify({ growth: peakRss() - before, ms, error }));
`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: BENCH_DIR });
  const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { growth: number; ms: number; error?: string };
  return { peakMiB: mibOf(result.growth), ms: result.ms, error: result.error };
}

/**
 * A store listing of 50 MiB (under a 64 MiB cap) and one of 200 MiB (over it), each from a loopback server
 * that streams it with `content-length`: how much memory one call holds at its peak, in a fresh process.
 */
async function measureLargeResponse() {
  const item = JSON.stringify({ product: { id: 1, name: 'x'.repeat(1000) } });
  const body = (bytes: number) => {
    const count = Math.floor((bytes - 2) / (item.length + 1));
    return Buffer.from(`[${Array.from({ length: count }, () => item).join(',')}]`);
  };
  const answers = new Map([
    ['/v1/products.json', body(LARGE_RESPONSE_BYTES)],
    ['/v1/orders.json', body(OVERSIZED_RESPONSE_BYTES)],
  ]);
  const server = createServer((request, response) => {
    const answer = answers.get((request.url ?? '').split('?')[0] ?? '') ?? Buffer.from('[]');
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.length) });
    response.end(answer);
  });
  const loopback = await listenOnLoopback(server);
  const baseUrl = `${loopback.origin}/v1`;
  try {
    const accepted = await largeCallInChildProcess(baseUrl, 'listProducts');
    const refused = await largeCallInChildProcess(baseUrl, 'listOrders');
    const plain = await largeCallInChildProcess(baseUrl, 'plainFetch');
    const row: OverheadRow = {
      group: 'store',
      variant: `StoreClient.api.listProducts(), one ${mibOf(LARGE_RESPONSE_BYTES)} MiB answer: peak RSS growth ${accepted.peakMiB} MiB`,
      mode: 'large response',
      medianMs: round(accepted.ms),
      perRequestUs: round(accepted.ms * 1_000),
      ratioToRaw: ratio(accepted.peakMiB, mibOf(LARGE_RESPONSE_CAP)),
    };
    return {
      row,
      peakGrowthMiB: accepted.peakMiB,
      ratioToCap: ratio(accepted.peakMiB, mibOf(LARGE_RESPONSE_CAP)),
      ratioToBody: ratio(accepted.peakMiB, mibOf(LARGE_RESPONSE_BYTES)),
      oversizedError: refused.error ?? 'not refused',
      oversizedPeakGrowthMiB: refused.peakMiB,
      plainFetchPeakGrowthMiB: plain.peakMiB,
    };
  } finally {
    await loopback.close();
  }
}

export const OVERHEAD_SETTINGS = { requests: REQUESTS, runs: RUNS, concurrency: CONCURRENCY };
