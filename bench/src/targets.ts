/** The targets of issues #5 and #11, checked against what the sections measured. */

import type { BuildRow } from './build.ts';
import type { BundleRow } from './bundle.ts';
import type { CodeModeResult } from './code-mode.ts';
import type { ContractResult } from './contract.ts';
import { type McpToolsRow, mcpToolsTargets } from './mcp-tools.ts';
import { ratio } from './measure.ts';
import type { OverheadRow } from './overhead.ts';
import type { RateLimitResult } from './rate-limit.ts';
import type { TrustGuardResult } from './trust-guard.ts';
import type { TypeCheckRow } from './types.ts';
import type { WorkersRow } from './workers.ts';

export interface SectionResults {
  overhead?: OverheadRow[];
  bundle?: BundleRow[];
  build?: BuildRow[];
  contract?: ContractResult;
  rateLimit?: RateLimitResult;
  trustGuard?: TrustGuardResult;
  types?: TypeCheckRow[];
  workers?: WorkersRow[];
  mcpTools?: McpToolsRow[];
  codeMode?: CodeModeResult;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | 'not measured';
}

const MAX_OVERHEAD_RATIO = 1.1;
/** With 50 calls in flight (issue 20). */
const MAX_CONCURRENT_OVERHEAD_RATIO = 1.2;
/** Own work per call against openapi-fetch's, with an in-memory fetch. */
const MAX_RATIO_TO_OPENAPI_FETCH = 1;
/** 4 kB as size-limit counts it (1 kB = 1,000 bytes). */
export const MAX_ONE_OPERATION_GZIP_BYTES = 4_000;
const MAX_WHOLE_STORE_GZIP_BYTES = 20_000;
/** Import plus first call in a fresh process against openapi-fetch's, same run (issue 38). */
const MAX_COLD_START_RATIO_TO_OPENAPI_FETCH = 1.25;
/** Peak memory of one large answer, as a multiple of the response size cap. */
const MAX_LARGE_RESPONSE_RATIO_TO_CAP = 3;
const MAX_WARM_SHARE_OF_COLD = 0.05;
const MAX_CONTRACT_RATIO_TO_FLOOR = 2;
const MIN_SHARE_OF_RATE_LIMIT = 0.95;
/** A fleet sharing the store budget through Redis: its share of 20/s (issue 19). */
const MIN_FLEET_SHARE_OF_RATE_LIMIT = 0.85;
/** 429s allowed when Redis is killed in the middle of a run, as a share of requests. */
const MAX_429_SHARE_REDIS_KILLED = 0.05;

function check(target: string, measured: string | undefined, met: boolean | undefined): TargetCheck {
  return measured === undefined || met === undefined
    ? { target, measured: '-', met: 'not measured' }
    : { target, measured, met };
}

export function evaluateTargets(results: SectionResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const isClient = (row: OverheadRow) => !row.variant.startsWith('fetch') && !row.variant.startsWith('openapi-fetch');
  const sequential = results.overhead?.filter((row) => isClient(row) && row.mode === 'sequential');
  const worstOverhead = sequential?.reduce<OverheadRow | undefined>(
    (worst, row) => (worst && worst.ratioToRaw >= row.ratioToRaw ? worst : row),
    undefined,
  );
  checks.push(
    check(
      `client/fetch time ratio ≤ ${MAX_OVERHEAD_RATIO} on loopback, sequential (median, every client)`,
      sequential?.map((row) => `${row.group} ${row.ratioToRaw}`).join(', '),
      worstOverhead && worstOverhead.ratioToRaw <= MAX_OVERHEAD_RATIO,
    ),
  );

  const concurrent = results.overhead?.filter((row) => isClient(row) && row.mode.startsWith('concurrency'));
  checks.push(
    check(
      `client/fetch time ratio ≤ ${MAX_CONCURRENT_OVERHEAD_RATIO} on loopback, ${concurrent?.[0]?.mode ?? 'concurrent'} (median, every client)`,
      concurrent?.length ? concurrent.map((row) => `${row.group} ${row.ratioToRaw}`).join(', ') : undefined,
      concurrent?.length ? concurrent.every((row) => row.ratioToRaw <= MAX_CONCURRENT_OVERHEAD_RATIO) : undefined,
    ),
  );

  const inMemory = results.overhead?.filter((row) => row.mode === 'in-memory fetch, sequential');
  const peerRatios = inMemory
    ?.filter(isClient)
    .map((row) => ({ group: row.group, ratio: row.ratioToOpenapiFetch }))
    .filter((entry): entry is { group: string; ratio: number } => entry.ratio !== undefined);
  checks.push(
    check(
      `own work per call ≤ ${MAX_RATIO_TO_OPENAPI_FETCH}× openapi-fetch's (in-memory fetch, every client)`,
      peerRatios?.length ? peerRatios.map((entry) => `${entry.group} ${entry.ratio}`).join(', ') : undefined,
      peerRatios?.length ? peerRatios.every((entry) => entry.ratio <= MAX_RATIO_TO_OPENAPI_FETCH) : undefined,
    ),
  );

  const cold = results.overhead?.filter((row) => row.mode === 'cold start') ?? [];
  const coldRatios = cold.filter(isClient).flatMap((row) => {
    const peer = cold.find((other) => other.group === row.group && other.variant.startsWith('openapi-fetch'));
    return peer ? [{ group: row.group, ratio: ratio(row.medianMs, peer.medianMs) }] : [];
  });
  checks.push(
    check(
      `cold start (import + first call, fresh process) ≤ ${MAX_COLD_START_RATIO_TO_OPENAPI_FETCH}× openapi-fetch's (every client)`,
      coldRatios.length ? coldRatios.map((entry) => `${entry.group} ${entry.ratio}`).join(', ') : undefined,
      coldRatios.length ? coldRatios.every((entry) => entry.ratio <= MAX_COLD_START_RATIO_TO_OPENAPI_FETCH) : undefined,
    ),
  );

  const large = results.overhead?.find((row) => row.mode === 'large response');
  checks.push(
    check(
      `peak memory of one 50 MiB answer < ${MAX_LARGE_RESPONSE_RATIO_TO_CAP}× the size cap`,
      large && `${large.ratioToRaw}× (${large.variant})`,
      large && large.ratioToRaw < MAX_LARGE_RESPONSE_RATIO_TO_CAP,
    ),
  );

  // At import, as a code-splitting bundler ships it (rolldown, Vite's); esbuild's figure is shown beside it.
  const oneOperation = results.bundle?.filter(
    (row) => row.bundler === 'rolldown' && row.measures.startsWith('one operation imported alone'),
  );
  const esbuildFigure = (row: BundleRow) =>
    results.bundle?.find((other) => other.bundler === 'esbuild' && other.import === row.import)?.initialGzipBytes;
  const heaviest = oneOperation?.reduce<BundleRow | undefined>(
    (worst, row) => (worst && worst.initialGzipBytes >= row.initialGzipBytes ? worst : row),
    undefined,
  );
  checks.push(
    check(
      `one operation imported alone ≤ ${MAX_ONE_OPERATION_GZIP_BYTES / 1_000} kB min+gzip at import (rolldown, every client)`,
      oneOperation &&
        heaviest &&
        oneOperation
          .map((row) => `${row.package} ${row.initialGzipBytes} B (esbuild ${esbuildFigure(row) ?? '-'} B)`)
          .join(', '),
      heaviest && heaviest.initialGzipBytes <= MAX_ONE_OPERATION_GZIP_BYTES,
    ),
  );
  const wholeStore = results.bundle?.find(
    (row) =>
      row.bundler === 'rolldown' && row.package === '@agent-apis/store' && row.measures.startsWith('whole client'),
  );
  checks.push(
    check(
      `whole store client ≤ ${MAX_WHOLE_STORE_GZIP_BYTES / 1_000} kB min+gzip at import (rolldown)`,
      wholeStore && `${wholeStore.initialGzipBytes} B`,
      wholeStore && wholeStore.initialGzipBytes <= MAX_WHOLE_STORE_GZIP_BYTES,
    ),
  );

  const warm = results.build?.find((row) => row.build === 'warm, no change');
  checks.push(
    check(
      `warm build ≤ ${MAX_WARM_SHARE_OF_COLD * 100} % of cold`,
      warm && `${(warm.ratioToCold * 100).toFixed(1)} % (${warm.seconds} s, ${warm.cached})`,
      warm?.ok && warm.ratioToCold <= MAX_WARM_SHARE_OF_COLD,
    ),
  );

  const contract = results.contract;
  checks.push(
    check(
      `contract suite ≤ ${MAX_CONTRACT_RATIO_TO_FLOOR}× its floor (wall time)`,
      contract && `${contract.timeRatio}× (peak memory ${contract.memoryRatio}×)`,
      contract && contract.timeRatio <= MAX_CONTRACT_RATIO_TO_FLOOR,
    ),
  );

  const rateLimit = results.rateLimit;
  checks.push(
    check(
      `store throughput ≥ ${MIN_SHARE_OF_RATE_LIMIT * 100} % of 20 req/s, zero 429s`,
      rateLimit &&
        `${(rateLimit.shareOfLimit * 100).toFixed(1)} % (${rateLimit.achievedPerSecond} req/s), ${rateLimit.tooManyRequests} × 429`,
      rateLimit && rateLimit.shareOfLimit >= MIN_SHARE_OF_RATE_LIMIT && rateLimit.tooManyRequests === 0,
    ),
  );

  const guard = results.trustGuard;
  checks.push(
    check(
      'one decide call per domain per validity window',
      guard &&
        `${guard.decideCalls} calls for ${guard.domains} domains (max ${guard.maxDecideCallsPerDomain} per domain)`,
      guard && guard.maxDecideCallsPerDomain === 1 && guard.decideCalls === guard.domains,
    ),
  );
  const fleet = results.workers?.find((row) => row.processes === 8 && row.shared === 'redis');
  checks.push(
    check(
      `8 processes × 40 store calls through Redis: all answered, zero 429s, ≥ ${MIN_FLEET_SHARE_OF_RATE_LIMIT * 100} % of 20 req/s`,
      fleet &&
        `${fleet.answered}/${fleet.calls} answered, ${fleet.tooManyRequests} × 429, ${fleet.shareOfLimit * 100} %`,
      fleet &&
        fleet.answered === fleet.calls &&
        fleet.tooManyRequests === 0 &&
        fleet.shareOfLimit >= MIN_FLEET_SHARE_OF_RATE_LIMIT,
    ),
    check(
      '8 processes × 5 domains through Redis: one scan per domain, decisions right',
      fleet && `${fleet.scansPerDomain} scans per domain, decisions right: ${fleet.decisionsRight}`,
      fleet && fleet.scansPerDomain === 1 && fleet.decisionsRight,
    ),
  );
  const killed = results.workers?.find((row) => row.shared === 'redis killed');
  const killedRequests = killed ? killed.answered + killed.tooManyRequests : 0;
  checks.push(
    check(
      `Redis killed mid-run: no crash, ≤ ${MAX_429_SHARE_REDIS_KILLED * 100} % 429s, every call answered, decisions right`,
      killed &&
        `${killed.crashed} crashed, ${killed.tooManyRequests} × 429 of ${killedRequests} requests, ${killed.answered}/${killed.calls} answered, decisions right: ${killed.decisionsRight}`,
      killed &&
        killed.crashed === 0 &&
        killed.tooManyRequests <= MAX_429_SHARE_REDIS_KILLED * killedRequests &&
        killed.answered === killed.calls &&
        killed.decisionsRight,
    ),
  );
  checks.push(...mcpToolsTargets(results.mcpTools));
  return checks;
}
