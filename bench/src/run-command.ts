/** Runs a command to completion, timing it and sampling the memory of its process tree. */
import { spawn } from 'node:child_process';
import { sampleTreePeak } from './measure.ts';

export interface CommandResult {
  exitCode: number | null;
  wallMs: number;
  /** Peak resident memory of the command and all its descendants, sampled every 100 ms. */
  peakRssBytes: number;
  output: string;
}

export async function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const sampler = sampleTreePeak(child.pid);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const wallMs = performance.now() - started;
  return { exitCode, wallMs, peakRssBytes: await sampler.stop(), output };
}
