/**
 * `pnpm bench`: runs every section (or those named on the command line: overhead, bundle, build, contract,
 * rate-limit, trust-guard, types, workers, mcp-tools, code-mode), prints a table per section and the targets, and writes
 * `bench/.work/results.json` (a partial run `bench/.work/results-partial.json`). It never writes a tracked file: `bench/results.json` is the
 * record of the run BENCHMARKS.md quotes, replaced by hand (and formatted) when a new run is quoted.
 * Needs the packages built (`pnpm build`); the build section rebuilds in a scratch copy.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { measureBuilds } from './build.ts';
import { measureBundles } from './bundle.ts';
import { measureCodeMode } from './code-mode.ts';
import { COLD_START_RUNS, measureColdStart } from './cold-start.ts';
import { measureContractSuite } from './contract.ts';
import { measureMcpTools } from './mcp-tools.ts';
import { mib, ratio, round } from './measure.ts';
import { generateOpenapiFetchTypes } from './openapi-fetch-types.ts';
import { measureOverhead, OVERHEAD_SETTINGS } from './overhead.ts';
import { WORK_DIR } from './paths.ts';
import { measureRateLimit } from './rate-limit.ts';
import { table } from './report.ts';
import { evaluateTargets, type SectionResults } from './targets.ts';
import { measureTrustGuard } from './trust-guard.ts';
import { measureTypeChecks } from './types.ts';
import { measureWorkers } from './workers.ts';

const SECTIONS = [
  'overhead',
  'bundle',
  'build',
  'contract',
  'rate-limit',
  'trust-guard',
  'types',
  'workers',
  'mcp-tools',
  'code-mode',
] as const;
type Section = (typeof SECTIONS)[number];

async function runSection(section: Section, results: SectionResults): Promise<void> {
  switch (section) {
    case 'overhead': {
      const { requests, runs, concurrency } = OVERHEAD_SETTINGS;
      console.log(
        `${requests} requests per run, ${runs} runs per variant in alternating order; µs / request is the median run, ` +
          `each ratio the median of the ratios within a run; concurrent mode: ${concurrency} in flight`,
      );
      // The openapi-fetch peer is typed from the current final spec.
      await generateOpenapiFetchTypes();
      const perCall = await measureOverhead();
      console.log(
        table(perCall, {
          group: 'service',
          variant: 'through',
          mode: 'mode',
          perRequestUs: 'µs / request',
          ratioToRaw: 'ratio to fetch',
          ratioToOpenapiFetch: 'ratio to openapi-fetch',
        }),
      );
      console.log(
        `\ncold start: import + first call in a fresh process (median of ${COLD_START_RUNS} processes per variant)`,
      );
      const coldStart = await measureColdStart();
      const peerOf = (row: (typeof coldStart)[number]) =>
        coldStart.find((other) => other.group === row.group && other.variant.startsWith('openapi-fetch'));
      console.log(
        table(
          coldStart.map((row) => ({ ...row, ratioToPeer: ratio(row.medianMs, peerOf(row)?.medianMs ?? row.medianMs) })),
          {
            group: 'service',
            variant: 'through',
            medianMs: 'ms',
            modulesLoaded: 'modules loaded',
            ratioToRaw: 'ratio to fetch',
            ratioToPeer: 'ratio to openapi-fetch',
          },
        ),
      );
      results.overhead = [...perCall, ...coldStart];
      return;
    }
    case 'bundle':
      results.bundle = await measureBundles();
      console.log(
        table(results.bundle, {
          bundler: 'bundler',
          package: 'package',
          measures: 'measures',
          initialMinBytes: 'at import, min B',
          initialGzipBytes: 'at import, min+gzip B',
          lazyGzipBytes: 'loaded later, gzip B',
        }),
      );
      return;
    case 'build':
      results.build = await measureBuilds();
      console.log(
        table(results.build, {
          build: 'build',
          seconds: 's',
          ratioToCold: 'ratio to cold',
          tasks: 'tasks',
          cached: 'cached',
          ok: 'ok',
        }),
      );
      for (const row of results.build) if (row.failure) console.log(`\n${row.build} failed:\n${row.failure}`);
      return;
    case 'contract':
      results.contract = await measureContractSuite();
      console.log(table(results.contract.rows, { run: 'run', seconds: 's', peakMiB: 'peak MiB', detail: 'detail' }));
      console.log(`suite / floor: time ${results.contract.timeRatio}, peak memory ${results.contract.memoryRatio}`);
      return;
    case 'rate-limit':
      results.rateLimit = await measureRateLimit();
      console.log(
        table([results.rateLimit], {
          calls: 'calls',
          succeeded: 'ok',
          seconds: 's',
          achievedPerSecond: 'req/s',
          shareOfLimit: 'share of 20/s',
          busiestSecond: 'busiest second',
          tooManyRequests: '429s',
        }),
      );
      return;
    case 'trust-guard': {
      results.trustGuard = await measureTrustGuard();
      console.log(
        table(results.trustGuard.overhead, {
          sites: 'sites served by',
          plainFetchUs: 'plain µs',
          guardedFetchUs: 'guarded µs',
          ratio: 'ratio',
        }),
      );
      const { guardedFetches, domains, decideCalls, maxDecideCallsPerDomain } = results.trustGuard;
      console.log(
        `${guardedFetches} guarded fetches over ${domains} domains: ${decideCalls} decide calls (at most ${maxDecideCallsPerDomain} per domain)`,
      );
      return;
    }
    case 'workers':
      results.workers = await measureWorkers();
      console.log(
        table(results.workers, {
          processes: 'processes',
          shared: 'shared',
          calls: 'calls',
          answered: 'answered',
          seconds: 's',
          requestsPerSecond: 'req/s',
          shareOfLimit: 'share of 20/s',
          tooManyRequests: '429s',
          p50WaitMs: 'p50 wait ms',
          p99WaitMs: 'p99 wait ms',
          scansPerDomain: 'scans/domain',
          decisionsRight: 'decisions right',
          crashed: 'crashed',
          warnings: 'warnings',
          degradedFloor: 'degraded floor',
        }),
      );
      return;
    case 'mcp-tools':
      results.mcpTools = await measureMcpTools();
      console.log('tools/list over stdio, each server a real process: JSON bytes, and tokens estimated as bytes / 4');
      console.log(
        table(results.mcpTools, {
          mode: 'mode',
          server: 'server',
          tools: 'tools',
          bytes: 'bytes',
          estimatedTokens: '≈ tokens',
          ratioToPeers: 'ratio to the larger peer',
          error: 'error',
        }),
      );
      return;
    case 'code-mode': {
      results.codeMode = await measureCodeMode();
      const { rows, toolsListBytes, maxCodeCalls, totalBytesRatio } = results.codeMode;
      console.log('five tasks over the stand-ins: tool calls and bytes of tool results handed to the agent');
      console.log(
        table(rows, {
          task: 'task',
          directCalls: 'direct calls',
          directBytes: 'direct bytes',
          codeCalls: 'code calls',
          codeBytes: 'code bytes',
          bytesRatio: 'code / direct',
        }),
      );
      console.log(
        `code mode: at most ${maxCodeCalls} calls per task (goal ≤ 2), ${totalBytesRatio} of the bytes (goal ≤ 0.2); ` +
          `tools/list ${toolsListBytes.code} bytes (default server ${toolsListBytes.direct})`,
      );
      return;
    }
    case 'types':
      results.types = await measureTypeChecks();
      console.log(
        table(results.types, {
          through: 'store task through',
          wallMs: 'tsc ms',
          wallRatioToOpenapiFetch: 'ratio',
          instantiations: 'instantiations',
          instantiationRatioToOpenapiFetch: 'ratio',
          checkMs: 'check ms',
          types: 'types',
        }),
      );
      return;
  }
}

function machine() {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main(requested: string[]): Promise<void> {
  const unknown = requested.filter((name) => !SECTIONS.includes(name as Section));
  if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  const sections = requested.length > 0 ? (requested as Section[]) : [...SECTIONS];
  const results: SectionResults = {};
  const timings: Record<string, { seconds: number; loadBefore: number[]; error?: string }> = {};
  const started = performance.now();
  console.log(`machine: ${JSON.stringify(machine())}`);
  for (const section of sections) {
    console.log(`\n== ${section}`);
    const loadBefore = loadavg().map((load) => round(load, 2));
    const sectionStarted = performance.now();
    try {
      await runSection(section, results);
      timings[section] = { seconds: round((performance.now() - sectionStarted) / 1_000, 1), loadBefore };
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.log(`${section} failed: ${message}`);
      timings[section] = {
        seconds: round((performance.now() - sectionStarted) / 1_000, 1),
        loadBefore,
        error: message,
      };
    }
  }
  const targets = evaluateTargets(results);
  console.log(`\n== targets\n${table(targets, { target: 'target', measured: 'measured', met: 'met' })}`);
  const report = {
    command: `pnpm bench${requested.length > 0 ? ` ${requested.join(' ')}` : ''}`,
    finishedAt: new Date().toISOString(),
    totalSeconds: round((performance.now() - started) / 1_000, 1),
    machine: machine(),
    peakRssOfThisProcessMiB: mib(process.resourceUsage().maxRSS * 1024),
    sections: timings,
    results,
    targets,
  };
  const file = join(WORK_DIR, requested.length > 0 ? 'results-partial.json' : 'results.json');
  await mkdir(WORK_DIR, { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${file} (${report.totalSeconds} s)`);
}

await main(process.argv.slice(2));
