/**
 * Fleets of real processes for tests and benchmarks: each worker is a Node process running `script` with its
 * config as JSON in argv[2], and prints its result as the last line of its output.
 */
import { spawn } from 'node:child_process';

export interface WorkerOutcome<Result> {
  /** Exit code (null when killed by a signal). */
  code: number | null;
  /** The parsed last line of standard output, when it was JSON. */
  result: Result | undefined;
  stderr: string;
}

/** Longest a worker may run before it is killed. */
const WORKER_DEADLINE_MS = 150_000;

/** A running fleet: resolves once every worker exited. */
export interface Fleet<Result> extends Promise<WorkerOutcome<Result>[]> {
  /**
   * Resolves once every worker printed `ready` (it is connected) and `midRun()` holds, asked every 25 ms: the
   * moment to break something under a running fleet.
   */
  running(midRun?: () => boolean): Promise<void>;
}

/** Runs one worker process per config, all at once. */
export function runWorkers<Result>(script: string, configs: readonly unknown[]): Fleet<Result> {
  let ready = 0;
  const outcomes = Promise.all(
    configs.map(
      (config) =>
        new Promise<WorkerOutcome<Result>>((resolve, reject) => {
          const child = spawn(process.execPath, [script, JSON.stringify(config)], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          let pending = '';
          child.stdout.on('data', (chunk: Buffer) => {
            stdout += chunk.toString();
            pending += chunk.toString();
            const lines = pending.split('\n');
            pending = lines.pop() ?? '';
            ready += lines.filter((line) => line === 'ready').length;
          });
          child.stderr.on('data', (chunk: Buffer) => {
            stderr += chunk.toString();
          });
          // A worker stuck past any test's patience is killed, so a failed test leaves no process behind.
          const deadline = setTimeout(() => child.kill('SIGKILL'), WORKER_DEADLINE_MS);
          deadline.unref();
          child.once('error', reject);
          child.once('close', (code) => {
            clearTimeout(deadline);
            const last = stdout.trim().split('\n').at(-1) ?? '';
            let result: Result | undefined;
            try {
              result = JSON.parse(last) as Result;
            } catch {
              result = undefined;
            }
            resolve({ code, result, stderr });
          });
        }),
    ),
  );
  return Object.assign(outcomes, {
    async running(midRun: () => boolean = () => true) {
      while (ready < configs.length || !midRun()) await new Promise((resolve) => setTimeout(resolve, 25));
    },
  });
}
