/** The targets of issue #5, checked against what the sections measured. */
import type { BuildRow } from './build.ts';
import type { BundleRow } from './bundle.ts';
import type { ContractResult } from './contract.ts';
import type { OverheadRow } from './overhead.ts';
import type { RateLimitResult } from './rate-limit.ts';
import type { TrustGuardResult } from './trust-guard.ts';
import type { TypeCheckRow } from './types.ts';

export interface SectionResults {
  overhead?: OverheadRow[];
  bundle?: BundleRow[];
  build?: BuildRow[];
  contract?: ContractResult;
  rateLimit?: RateLimitResult;
  trustGuard?: TrustGuardResult;
  types?: TypeCheckRow[];
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | 'not measured';
}

const MAX_OVERHEAD_RATIO = 1.1;
/** 5 kB as size-limit counts it (1 kB = 1,000 bytes). */
const MAX_ONE_OPERATION_GZIP_BYTES = 5_000;
const MAX_WARM_SHARE_OF_COLD = 0.05;
const MAX_CONTRACT_RATIO_TO_FLOOR = 2;
const MIN_SHARE_OF_RATE_LIMIT = 0.95;

function check(target: string, measured: string | undefined, met: boolean | undefined): TargetCheck {
  return measured === undefined || met === undefined
    ? { target, measured: '-', met: 'not measured' }
    : { target, measured, met };
}

export function evaluateTargets(results: SectionResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const clientRows = results.overhead?.filter(
    (row) =>
      row.variant !== 'fetch' && !row.variant.startsWith('openapi-fetch') && row.mode !== 'in-memory fetch, sequential',
  );
  const worstOverhead = clientRows?.reduce<OverheadRow | undefined>(
    (worst, row) => (worst && worst.ratioToRaw >= row.ratioToRaw ? worst : row),
    undefined,
  );
  checks.push(
    check(
      `client/fetch time ratio ≤ ${MAX_OVERHEAD_RATIO} (median, every client and mode)`,
      worstOverhead && `worst ${worstOverhead.ratioToRaw} (${worstOverhead.variant}, ${worstOverhead.mode})`,
      worstOverhead && worstOverhead.ratioToRaw <= MAX_OVERHEAD_RATIO,
    ),
  );

  const oneOperation = results.bundle?.filter(
    (row) => row.measures.startsWith('one operation') && row.package.startsWith('@agent-apis/'),
  );
  const heaviest = oneOperation?.reduce<BundleRow | undefined>(
    (worst, row) => (worst && worst.initialGzipBytes >= row.initialGzipBytes ? worst : row),
    undefined,
  );
  checks.push(
    check(
      `one-operation import ≤ ${MAX_ONE_OPERATION_GZIP_BYTES / 1_000} kB min+gzip (every client)`,
      oneOperation && heaviest && oneOperation.map((row) => `${row.package} ${row.initialGzipBytes} B`).join(', '),
      heaviest && heaviest.initialGzipBytes <= MAX_ONE_OPERATION_GZIP_BYTES,
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
  return checks;
}
