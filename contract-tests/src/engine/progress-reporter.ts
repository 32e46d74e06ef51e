/**
 * Progress while a live run goes: a vitest reporter that prints, every `intervalMs` (default 15 s) while something
 * changed, the checks done of the checks collected, per contract file (`store 212/734`), with the time since the
 * start. vitest's own reporter prints a file's results only when the file ends, so a store run would otherwise be
 * silent for minutes. Used by `vitest.config.ts` in live mode.
 *
 * The runner's own lines (`progress.ts`: one per finished operation, with the budget) come from inside the checks;
 * this one counts vitest's test cases per file from outside, the tool-server file included, and keeps time.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

interface Counts {
  done: number;
  total: number;
}

export interface ProgressOptions {
  intervalMs?: number;
  write?: (line: string) => void;
  now?: () => number;
}

/** `src/checks/store.contract.test.ts` → `store`, `src/checks/mcp.contract.test.ts` → `tool servers`. */
function nameOf(moduleId: string): string {
  const base = moduleId.replace(/^.*[\\/]/, '').replace(/\.contract\.test\.ts$/, '');
  return base === 'mcp' ? 'tool servers' : base;
}

export class ProgressReporter implements Reporter {
  readonly #counts = new Map<string, Counts>();
  readonly #intervalMs: number;
  readonly #write: (line: string) => void;
  readonly #now: () => number;
  #started = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #printed = '';

  constructor(options: ProgressOptions = {}) {
    this.#intervalMs = options.intervalMs ?? 15_000;
    this.#write = options.write ?? ((line) => process.stderr.write(`${line}\n`));
    this.#now = options.now ?? Date.now;
  }

  onTestRunStart(): void {
    this.#started = this.#now();
    this.#timer = setInterval(() => this.print(), this.#intervalMs);
    this.#timer.unref?.();
  }

  onTestModuleCollected(testModule: TestModule): void {
    const counts = this.#of(testModule.moduleId);
    counts.total = [...testModule.children.allTests()].length;
  }

  onTestCaseResult(testCase: TestCase): void {
    this.#of(testCase.module.moduleId).done += 1;
  }

  onTestRunEnd(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The progress line now; printed when it differs from the last one printed. */
  line(): string {
    let done = 0;
    let total = 0;
    const parts: string[] = [];
    for (const [name, counts] of [...this.#counts].sort(([a], [b]) => a.localeCompare(b))) {
      done += counts.done;
      total += counts.total;
      parts.push(`${name} ${counts.done}/${counts.total}`);
    }
    const seconds = Math.round((this.#now() - this.#started) / 1000);
    const elapsed = `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
    return `contract progress: ${done} of ${total} checks done (${parts.join(', ') || 'collecting'}), ${elapsed}`;
  }

  print(): void {
    const line = this.line();
    const key = line.replace(/, \d+m\d+s$/, '');
    if (key === this.#printed) return;
    this.#printed = key;
    this.#write(line);
  }

  #of(moduleId: string): Counts {
    const name = nameOf(moduleId);
    let counts = this.#counts.get(name);
    if (!counts) {
      counts = { done: 0, total: 0 };
      this.#counts.set(name, counts);
    }
    return counts;
  }
}
