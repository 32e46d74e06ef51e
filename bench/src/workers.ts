/**
 * Section `workers`: a fleet of N processes (1, 4, 8), each with its own `StoreClient` and `TrustClient`, makes
 * 40 store list calls and 5 `decide` calls for the same 5 domains, with each process on its own (in-process
 * limiter and cache) and with the budget and decisions shared through Redis; then the Redis run again with
 * Redis killed once a quarter of the calls were answered. Per run: aggregate requests/s, its share of 20/s,
 * 429 answers, p50/p99 wait per call, trust scans per domain.
 *
 * By default it starts a loopback store stand-in (20/s and 800/min, sliding), a trust stand-in and a
 * `redis-server` on free ports (a fresh stand-in per run, so no run inherits another's windows).
 * `STORE_BASE_URL`, `TRUST_BASE_URL` and `REDIS_URL` point it at other servers instead (then with
 * `STORE_LOGIN`/`STORE_AUTH_TOKEN` and `ENTROPY0_API_KEY` from the environment; the kill run needs our own Redis).
 */
import { fileURLToPath } from 'node:url';
import { startDecideStandIn } from '@agent-apis/test-utils/decide-stand-in';
import { startLimitedStore } from '@agent-apis/test-utils/limited-store';
import { freePort } from '@agent-apis/test-utils/processes';
import { findRedisServer, REDIS_MISSING, type RedisServer, startRedisServer } from '@agent-apis/test-utils/redis';
import { runWorkers } from '@agent-apis/test-utils/workers';
import { startLatencyProxy } from './latency-proxy.ts';
import { round } from './measure.ts';
import type { ChildConfig, ChildResult } from './workers-child.ts';

const CHILD = fileURLToPath(new URL('./workers-child.ts', import.meta.url));
const CALLS_PER_PROCESS = 40;
const DOMAINS_PER_PROCESS = 5;
const PER_SECOND = 20;
const FLEETS = [1, 4, 8] as const;

export interface WorkersRow {
  processes: number;
  shared: 'none' | 'redis' | 'redis killed' | 'redis +50 ms' | 'redis +800 ms' | 'redis down';
  calls: number;
  answered: number;
  seconds: number;
  /** Calls answered divided by the time from the first call to the last answer, across the fleet. */
  requestsPerSecond: number;
  /** `requestsPerSecond` as a share of 20/s. */
  shareOfLimit: number;
  /** 429 answers the clients saw (retried ones included). */
  tooManyRequests: number;
  p50WaitMs: number;
  p99WaitMs: number;
  /** Decide requests sent, per domain. */
  scansPerDomain: number;
  /** Every decision as the service gives it for that domain. */
  decisionsRight: boolean;
  crashed: number;
  warnings: number;
  /**
   * The share of 20/s the fleet keeps when every process is on its degraded share (`1/workers` of each window,
   * workers 8): what a slow or lost Redis must never push it under.
   */
  degradedFloor: number;
}

/** Processes the fleet assumes while Redis is unavailable (the store's default `rateLimit.workers`). */
const FLEET_WORKERS = 8;

/** Per-command delays of the slow-Redis runs. */
const SLOW_REDIS = { 'redis +50 ms': 50, 'redis +800 ms': 800 } as const;

function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] as number;
}

async function runFleet(
  processes: number,
  shared: WorkersRow['shared'],
  run: number,
  ownRedis: RedisServer | undefined,
): Promise<WorkersRow> {
  const store = process.env.STORE_BASE_URL ? undefined : await startLimitedStore({ perSecond: PER_SECOND });
  const trust = process.env.TRUST_BASE_URL ? undefined : await startDecideStandIn({ latencyMs: 300 });
  const direct = shared === 'none' ? undefined : (process.env.REDIS_URL ?? ownRedis?.url);
  // A slow Redis: the same server behind a loopback proxy that delays every command.
  const proxy =
    direct && (shared === 'redis +50 ms' || shared === 'redis +800 ms')
      ? await startLatencyProxy(direct, SLOW_REDIS[shared])
      : undefined;
  // Redis down from the start: a port nothing listens on. Every process keeps to its share: the degraded floor.
  // `redis down`: a loopback port nothing listens on.
  const redisUrl = shared === 'redis down' ? `redis://127.0.0.1:${await freePort()}` : (proxy?.url ?? direct);
  const domains = Array.from(
    { length: DOMAINS_PER_PROCESS },
    (_, index) => `${index % 2 === 1 ? 'bad-' : ''}site-${index}.run-${run}-${Date.now()}.example`,
  );
  const config: ChildConfig = {
    storeUrl: store?.url ?? (process.env.STORE_BASE_URL as string),
    trustUrl: trust?.url ?? (process.env.TRUST_BASE_URL as string),
    redisUrl,
    budgetKey: `agent-apis-bench-workers:${run}:${Date.now()}`,
    calls: CALLS_PER_PROCESS,
    domains,
    ...(store ? { login: `bench-workers-${run}`, authToken: 'bench-workers-token' } : {}),
    ...(trust ? { apiKey: 'sk_ent0_bench-workers' } : {}),
  };
  const launched = Date.now();
  const outcomes = runWorkers<ChildResult>(
    CHILD,
    Array.from({ length: processes }, () => config),
  );
  const killed = shared === 'redis killed' && ownRedis !== undefined;
  if (killed) {
    const total = processes * CALLS_PER_PROCESS;
    // Mid-run: every process connected and a quarter of the calls answered (3 s in, against another store).
    await outcomes.running(() => (store ? store.accepted.length >= total / 4 : Date.now() - launched > 3_000));
    await ownRedis.kill();
  }
  const results = await outcomes;
  if (killed) await ownRedis?.restart();
  await proxy?.close();
  await store?.close();
  await trust?.close();
  const finished = results.flatMap((outcome) => (outcome.result ? [outcome.result] : []));
  const waits = finished.flatMap((result) => result.waits);
  const started = Math.min(...finished.map((result) => result.startedAt));
  // The store's share is counted to its last answer (the trust calls of the same processes may end later).
  const ended = Math.max(...finished.map((result) => result.storeFinishedAt));
  const seconds = (ended - started) / 1_000;
  const calls = processes * CALLS_PER_PROCESS;
  const callsAnswered = finished.reduce((sum, result) => sum + result.waits.length, 0);
  const expected = (domain: string) => (domain.startsWith('bad-') ? 'deny' : 'proceed');
  return {
    processes,
    shared,
    calls,
    answered: callsAnswered,
    seconds: round(seconds, 2),
    requestsPerSecond: round(callsAnswered / seconds, 2),
    shareOfLimit: round(callsAnswered / seconds / PER_SECOND, 3),
    tooManyRequests: finished.reduce((sum, result) => sum + result.tooManyRequests, 0),
    p50WaitMs: Math.round(percentile(waits, 0.5)),
    p99WaitMs: Math.round(percentile(waits, 0.99)),
    scansPerDomain: round(finished.reduce((sum, result) => sum + result.decideRequests, 0) / domains.length, 2),
    // Against our trust stand-in the right action is known; against another server, consistency across the fleet.
    decisionsRight: trust
      ? finished.every((result) => domains.every((domain) => result.actions[domain] === expected(domain)))
      : finished.every((result) => JSON.stringify(result.actions) === JSON.stringify(finished[0]?.actions)),
    crashed: results.filter((outcome) => outcome.code !== 0).length,
    warnings: finished.reduce((sum, result) => sum + result.warnings.length, 0),
    // Each process's share of the second (⌊20/8⌋ = 2 a second) times the processes; the minute's share (100) is
    // not reached by 40 calls.
    degradedFloor: round((Math.floor(PER_SECOND / FLEET_WORKERS) * processes) / PER_SECOND, 3),
  };
}

export async function measureWorkers(): Promise<WorkersRow[]> {
  const canStartRedis = findRedisServer() !== undefined;
  const ownRedis = process.env.REDIS_URL || !canStartRedis ? undefined : await startRedisServer();
  if (!process.env.REDIS_URL && !canStartRedis) console.log(`Redis runs skipped: ${REDIS_MISSING}`);
  const rows: WorkersRow[] = [];
  let run = 0;
  try {
    // `WORKERS_SLOW_ONLY=1` runs the 8-process Redis rows only (redis, the slow ones and redis down).
    const slowOnly = process.env.WORKERS_SLOW_ONLY === '1';
    if (slowOnly && (process.env.REDIS_URL || ownRedis)) rows.push(await runFleet(8, 'redis', run++, ownRedis));
    for (const processes of slowOnly ? [] : FLEETS) {
      rows.push(await runFleet(processes, 'none', run++, ownRedis));
      if (process.env.REDIS_URL || ownRedis) rows.push(await runFleet(processes, 'redis', run++, ownRedis));
    }
    if (ownRedis && !slowOnly) rows.push(await runFleet(8, 'redis killed', run++, ownRedis));
    if (process.env.REDIS_URL || ownRedis) {
      for (const slow of Object.keys(SLOW_REDIS) as (keyof typeof SLOW_REDIS)[]) {
        rows.push(await runFleet(8, slow, run++, ownRedis));
      }
      rows.push(await runFleet(8, 'redis down', run++, ownRedis));
    }
  } finally {
    await ownRedis?.stop();
  }
  return rows;
}
