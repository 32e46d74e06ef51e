/**
 * `pnpm contract`: runs the contract project of vitest, then ends with the run's state as its exit code:
 *
 * | exit | state      | meaning                                                                                  |
 * | ---- | ---------- | ---------------------------------------------------------------------------------------- |
 * | 0    | green      | no failure, and every service run reached its evidence floor                             |
 * | 1    | failed     | a promise of the contract is broken (or a test failed that no evidence explains)         |
 * | 3    | unverified | no failure, but a service fell short of its floor, a CONTRACT_REQUIRE service was not run, or nothing was run at all |
 *
 * The state comes from `run.json`, which the global teardown writes from the runner's evidence (`evidence.ts`),
 * and, for a service that wrote none (the agent tool servers; a mock run when the runner writes no evidence in mock
 * mode), from its coverage file: failed on a failed check, unverified when nothing was exercised, else green. A run
 * whose teardown wrote no `run.json` (vitest stopped before it) keeps vitest's exit code, 3 if that was 0.
 *
 * Arguments are passed to vitest (`pnpm contract src/trust.contract.test.ts`). vitest's output and its JUnit file
 * pass through the same masking as every report (`report/text.ts`): a configured base URL shows as `$NAME`, a
 * credential as `[REDACTED]`, wherever a test title or message carried it.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { coverageDir } from '../evidence/coverage.ts';
import { EXIT_CODES } from '../evidence/evidence.ts';
import { readRunFile } from '../report/run-report.ts';
import { type Masking, maskingFrom, maskRaw } from '../report/text.ts';
import { contractTarget } from '../settings.ts';

/** The exit code of `pnpm contract` from vitest's exit code and the run's judgement (undefined: none written). */
export function contractExitCode(vitestCode: number, judged: number | undefined): { code: number; why: string } {
  if (judged === undefined) {
    return vitestCode === 0
      ? { code: EXIT_CODES.unverified, why: 'the run wrote no judgement (run.json): unverified' }
      : { code: vitestCode, why: `vitest stopped (exit ${vitestCode}) before the run was judged` };
  }
  if (judged !== EXIT_CODES.green) return { code: judged, why: 'the run judgement' };
  if (vitestCode !== 0) {
    return {
      code: EXIT_CODES.failed,
      why: `vitest reported a failing test (exit ${vitestCode}) the evidence does not show`,
    };
  }
  return { code: EXIT_CODES.green, why: 'the run judgement' };
}

/** Copies `from` to `to` line by line, masked (a secret is never split across two writes). */
function pipeMasked(from: Readable, to: Writable, masking: Masking): Promise<void> {
  let pending = '';
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    const text = pending + chunk;
    const end = text.lastIndexOf('\n') + 1;
    pending = text.slice(end);
    // A line that never ends is flushed at 64 KiB, so memory stays bounded.
    if (pending.length > 65_536) {
      to.write(maskRaw(text, masking));
      pending = '';
    } else if (end > 0) to.write(maskRaw(text.slice(0, end), masking));
  });
  return new Promise((resolve) =>
    from.on('end', () => {
      if (pending) to.write(maskRaw(pending, masking));
      resolve();
    }),
  );
}

async function main(): Promise<void> {
  const target = contractTarget();
  const dir = coverageDir(target);
  const masking = maskingFrom();
  const vitest = join(import.meta.dirname, '..', '..', 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--project', 'contract', ...process.argv.slice(2)], {
    stdio: ['inherit', 'pipe', 'pipe'],
    env: { ...process.env, ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}) },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  const piped = Promise.all([
    pipeMasked(child.stdout, process.stdout, masking),
    pipeMasked(child.stderr, process.stderr, masking),
  ]);
  const vitestCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  await piped;
  const junit = join(dir, 'junit.xml');
  const text = await readFile(junit, 'utf8').catch(() => undefined);
  if (text !== undefined) await writeFile(junit, maskRaw(text, masking));
  const run = await readRunFile(dir);
  const { code, why } = contractExitCode(vitestCode, run?.exitCode);
  console.log(`${run?.headline ?? `contract (${target}): no judgement written`}\ncontract: exit ${code} (${why})`);
  process.exitCode = code;
}

if (import.meta.main) await main();
