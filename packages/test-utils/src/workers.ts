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

/**
 * Runs one worker process per config, all at once, and waits for every one to exit. `onLine` sees every line a
 * worker prints as it comes (e.g. a `ready` line once it is connected).
 */
export function runWorkers<Result>(
  script: string,
  configs: readonly unknown[],
  onLine: (worker: number, line: string) => void = () => undefined,
): Promise<WorkerOutcome<Result>[]> {
  return Promise.all(
    configs.map(
      (config, worker) =>
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
            for (const line of lines) onLine(worker, line);
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
}
