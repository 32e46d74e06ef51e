/**
 * Fleets of real processes for tests and benchmarks: each worker is a Node process running `script` with its
 * config as JSON in argv[2], and prints its result as the last line of its output.
 */
import { runScript, type ScriptRun } from './processes.ts';

/** Longest a worker may run before it is killed. */
const WORKER_DEADLINE_MS = 150_000;

/** A running fleet: resolves once every worker exited. */
export interface Fleet<Result> extends Promise<ScriptRun<Result>[]> {
  /**
   * Resolves once every worker printed `ready` (it is connected) and `midRun()` holds, asked every 25 ms: the
   * moment to break something under a running fleet.
   */
  running(midRun?: () => boolean): Promise<void>;
}

/** Runs one worker process per config, all at once. */
export function runWorkers<Result>(script: string, configs: readonly unknown[]): Fleet<Result> {
  let ready = 0;
  const onLine = (line: string) => {
    if (line === 'ready') ready++;
  };
  const outcomes = Promise.all(
    configs.map((config) =>
      runScript<Result>([script, JSON.stringify(config)], { deadlineMs: WORKER_DEADLINE_MS, onLine }),
    ),
  );
  return Object.assign(outcomes, {
    async running(midRun: () => boolean = () => true) {
      while (ready < configs.length || !midRun()) await new Promise((resolve) => setTimeout(resolve, 25));
    },
  });
}
