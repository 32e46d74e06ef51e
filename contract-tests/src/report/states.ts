/**
 * The state of a run, per service and as an exit code, from what the run left in its target's folder:
 * `evidence-<service>.json` (judged by `judgeService`) and, for a service that wrote no evidence (the agent tool
 * servers, a mock run), its `coverage-<service>.json`. `CONTRACT_REQUIRE` turns a skipped or unverified named
 * service red; `CONTRACT_STRICT=1` turns warnings and a field gone since last night red.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type ServiceCoverage, toolVerdicts } from '../evidence/coverage.ts';
import {
  EXIT_CODES,
  judgeService,
  OPERATION_VERDICTS,
  type OperationVerdict,
  runExitCode,
  type ServiceEvidence,
  type ServiceState,
  type ServiceVerdict,
} from '../evidence/evidence.ts';
import { readCapped, refuseLinkedFolder } from '../evidence/files.ts';

/** The label of each state, the same in every report (printed table, Markdown, HTML, JUnit, nightly). */
export const STATE_LABELS: Record<ServiceState, string> = {
  green: 'green',
  failed: 'failed',
  unverified: 'unverified',
  skipped: 'skipped (not configured)',
};

/** The colour of each state in the HTML page (and the emoji of Markdown rows). */
export const STATE_COLOURS: Record<ServiceState, string> = {
  green: '#1a7f37',
  failed: '#cf222e',
  unverified: '#9a6700',
  skipped: '#6e7781',
};

export const STATE_MARKS: Record<ServiceState, string> = {
  green: '🟢',
  failed: '🔴',
  unverified: '🟠',
  skipped: '⚪',
};

export const VERDICT_COLOURS: Record<OperationVerdict, string> = {
  verified: '#1a7f37',
  failed: '#cf222e',
  warned: '#bf8700',
  inconclusive: '#8250df',
  'not-run': '#6e7781',
};

/** A service's state and where it came from. */
export interface JudgedService extends ServiceVerdict {
  /** `evidence`: judged from the runner's evidence; `coverage`: derived from the coverage file alone. */
  source: 'evidence' | 'coverage';
  /** The state before CONTRACT_REQUIRE and CONTRACT_STRICT were applied. */
  judged: ServiceState;
  /** A CONTRACT_REQUIRE name. */
  required: boolean;
}

/** `CONTRACT_REQUIRE=store,trust`: the services that must be verified (a skip of one is red). */
export function requiredServices(env: Record<string, string | undefined> = process.env): Set<string> {
  return new Set(
    (env.CONTRACT_REQUIRE ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

const EVIDENCE_FILE = /^evidence-[a-z]+(-mcp)?\.json$/;
const COVERAGE_FILE = /^coverage-[a-z]+(-mcp)?\.json$/;
/** A file a report reads is at most this large; a bigger one is a broken run, reported as such. */
const MAX_FILE_BYTES = 64 << 20;

/** Removes the evidence files of an earlier run, so a report only speaks of this one. */
export async function clearEvidence(dir: string): Promise<void> {
  await refuseLinkedFolder(dir);
  const files = (await readdir(dir).catch(() => [])).filter((f) => EVIDENCE_FILE.test(f));
  await Promise.all(files.map((f) => rm(join(dir, f), { force: true })));
}

async function readJsonFiles<T>(dir: string, pattern: RegExp): Promise<T[]> {
  const files = (await readdir(dir).catch(() => [])).filter((f) => pattern.test(f)).sort();
  const out: T[] = [];
  for (const file of files) {
    const read = await readCapped(join(dir, file), MAX_FILE_BYTES);
    if ('refused' in read) throw new Error(`${file} is ${read.refused}: not a file this run wrote`);
    out.push(JSON.parse(read.text) as T);
  }
  return out;
}

/** The evidence and coverage files of one target's folder. */
export async function readRunFiles(
  dir: string,
  target: 'mock' | 'live',
): Promise<{ evidence: ServiceEvidence[]; coverage: ServiceCoverage[] }> {
  const evidence = (await readJsonFiles<ServiceEvidence>(dir, EVIDENCE_FILE)).filter((e) => e.target === target);
  const coverage = (await readJsonFiles<ServiceCoverage>(dir, COVERAGE_FILE)).filter((c) => c.mode === target);
  return { evidence, coverage };
}

/**
 * The state of a service that wrote no evidence, from its coverage: skipped when it was not run, failed on a
 * failed check, unverified when nothing was exercised (no operation or tool whose checks all passed), else green.
 */
export function stateFromCoverage(data: ServiceCoverage): ServiceVerdict {
  if (data.kind === 'tools') return toolServerState(data);
  const counts = Object.fromEntries(OPERATION_VERDICTS.map((v) => [v, 0])) as Record<OperationVerdict, number>;
  const reasons: string[] = [];
  for (const operation of data.operations) {
    const entries = data.entries.filter((e) => e.operation === operation);
    const verdict: OperationVerdict = entries.some((e) => e.outcome === 'failed')
      ? 'failed'
      : entries.some((e) => e.outcome === 'passed') && entries.every((e) => e.outcome !== 'inconclusive')
        ? entries.some((e) => e.outcome === 'warning')
          ? 'warned'
          : 'verified'
        : entries.some((e) => e.outcome === 'inconclusive')
          ? 'inconclusive'
          : 'not-run';
    counts[verdict] += 1;
  }
  // Checks on no operation of the list (a tool server's `tools/list`) count too.
  const failedChecks = data.entries.filter((e) => e.outcome === 'failed');
  for (const e of failedChecks) reasons.push(`${e.operation} ${e.check}: ${e.note ?? 'failed'}`);
  const base = { service: data.service, verified: counts.verified + counts.warned, total: data.operations.length };
  if (data.skipped !== undefined) return { ...base, counts, state: 'skipped', reasons: [data.skipped] };
  if (failedChecks.length > 0) return { ...base, counts, state: 'failed', reasons };
  if (base.verified === 0) {
    return { ...base, counts, state: 'unverified', reasons: [`0 of ${data.operations.length} exercised`] };
  }
  return { ...base, counts, state: 'green', reasons: [] };
}

/**
 * The state of an agent tool server, counted as `toolVerdicts` counts its tools (the same figures as the coverage
 * table): failed on any failed check (its handshake or tools/list included), unverified when no tool was verified
 * or a tool it was asked about answered nothing conclusive, else green. A tool never called (a write without
 * permission, no record to read, a failed handshake) is not verified and says why.
 */
function toolServerState(data: ServiceCoverage): ServiceVerdict {
  const counts = Object.fromEntries(OPERATION_VERDICTS.map((v) => [v, 0])) as Record<OperationVerdict, number>;
  const tools = toolVerdicts(data);
  for (const { verdict } of tools.values()) counts[verdict] += 1;
  const base = { service: data.service, verified: counts.verified, total: data.operations.length, counts };
  if (data.skipped !== undefined) return { ...base, state: 'skipped', reasons: [data.skipped] };
  const reasons = data.entries
    .filter((e) => e.outcome === 'failed')
    .map((e) => `${e.operation} ${e.check}: ${e.note ?? 'failed'}`);
  if (reasons.length > 0) {
    // Tools left uncalled by the failure say so once, not once per tool.
    const notRun = new Map<string, number>();
    for (const v of tools.values()) {
      if (v.verdict === 'not-run') notRun.set(v.reason ?? '', (notRun.get(v.reason ?? '') ?? 0) + 1);
    }
    for (const [why, n] of notRun) if (n > 1) reasons.push(`${n} tools not verified: ${why}`);
    return { ...base, state: 'failed', reasons: dedupe(reasons) };
  }
  for (const [tool, v] of tools) if (v.verdict === 'inconclusive') reasons.push(`${tool} not verified: ${v.reason}`);
  if (counts.verified === 0) reasons.unshift(`0 of ${data.operations.length} tools verified (called, answer checked)`);
  return { ...base, state: reasons.length > 0 ? 'unverified' : 'green', reasons };
}

/** The lines in order, each once. */
function dedupe(lines: string[]): string[] {
  return [...new Set(lines)];
}

export interface RunJudgement {
  target: 'mock' | 'live';
  services: JudgedService[];
  exitCode: number;
  /** One line: the state of the run and why. */
  headline: string;
}

export interface JudgeOptions {
  required?: ReadonlySet<string>;
  strict?: boolean;
  /** Services with a history warning (a field gone since last night): red under CONTRACT_STRICT=1. */
  historyWarnings?: Map<string, string[]>;
}

/**
 * Every service's state: from its evidence when it wrote any, else from its coverage; then a required service
 * that was skipped becomes unverified (`required, not configured`), and under CONTRACT_STRICT=1 a warned operation
 * or a history warning makes it failed. The exit code is `runExitCode` over the result; a run with no service at
 * all is unverified.
 */
export function judgeRun(
  target: 'mock' | 'live',
  evidence: ServiceEvidence[],
  coverage: ServiceCoverage[],
  options: JudgeOptions = {},
): RunJudgement {
  const required = options.required ?? new Set<string>();
  const withEvidence = new Set(evidence.map((e) => e.service));
  const verdicts: { verdict: ServiceVerdict; source: 'evidence' | 'coverage'; warned: number }[] = [
    ...evidence.map((e) => ({
      verdict: judgeService(e),
      source: 'evidence' as const,
      warned: e.operations.filter((op) => op.verdict === 'warned').length,
    })),
    ...coverage
      .filter((c) => !withEvidence.has(c.service))
      .map((c) => ({
        verdict: stateFromCoverage(c),
        source: 'coverage' as const,
        warned: c.entries.filter((e) => e.outcome === 'warning').length,
      })),
  ].sort((a, b) => a.verdict.service.localeCompare(b.verdict.service));
  const services = verdicts.map(({ verdict, source, warned }): JudgedService => {
    const isRequired = required.has(verdict.service);
    let state = verdict.state;
    let reasons = [...verdict.reasons];
    if (state === 'skipped' && isRequired) {
      state = 'unverified';
      reasons = [`required by CONTRACT_REQUIRE, but not run: ${verdict.reasons.join('; ') || 'skipped'}`];
    }
    if (options.strict && state !== 'skipped' && state !== 'failed') {
      const history = options.historyWarnings?.get(verdict.service) ?? [];
      if (warned > 0 || history.length > 0) {
        state = 'failed';
        if (warned > 0) reasons.unshift(`CONTRACT_STRICT=1: ${warned} warning(s)`);
        for (const line of history) reasons.unshift(`CONTRACT_STRICT=1: ${line}`);
      }
    }
    return { ...verdict, state, reasons, judged: verdict.state, source, required: isRequired };
  });
  for (const name of required) {
    if (!services.some((s) => s.service === name)) {
      const counts = Object.fromEntries(OPERATION_VERDICTS.map((v) => [v, 0])) as Record<OperationVerdict, number>;
      services.push({
        service: name,
        state: 'unverified',
        judged: 'skipped',
        verified: 0,
        total: 0,
        counts,
        reasons: ['required by CONTRACT_REQUIRE, but the run left no evidence or coverage for it'],
        source: 'coverage',
        required: true,
      });
    }
  }
  const exitCode = services.length === 0 ? EXIT_CODES.unverified : runExitCode(services, required);
  return { target, services, exitCode, headline: headline(target, services, exitCode) };
}

function headline(target: string, services: JudgedService[], exitCode: number): string {
  const state =
    exitCode === EXIT_CODES.green ? 'green' : exitCode === EXIT_CODES.failed ? 'failed' : ('unverified' as const);
  const verified = services.reduce((n, s) => n + s.verified, 0);
  const total = services.reduce((n, s) => n + s.total, 0);
  const counted = services.filter((s) => s.state !== 'skipped').length;
  if (counted === 0) {
    const why = services.length ? 'no service was configured' : 'no service was run';
    return `contract (${target}): ${STATE_LABELS.unverified}: ${why}, nothing verified (exit ${exitCode})`;
  }
  return `contract (${target}): ${STATE_LABELS[state]}: ${verified} of ${total} operations verified (exit ${exitCode})`;
}
