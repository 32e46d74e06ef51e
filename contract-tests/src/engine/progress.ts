/**
 * Progress while a live run goes: one line per finished step on stdout (not through the test reporter, which
 * holds a file's output until it ends), e.g.
 * `store ▸ 12/40 getProduct verified · 85 requests · 0 answered 429 · 1 of 3 trust scans left`.
 * Lines carry operation names, counts and verdicts only: never a URL or a credential. The time-keeping count of
 * checks per contract file is vitest's side (`progress-reporter.ts`).
 */
import type { LiveBudget } from './budget.ts';

export class Progress {
  #done = 0;
  total = 0;
  readonly #service: string;
  readonly #budget: LiveBudget;
  readonly #write: (line: string) => void;

  constructor(
    service: string,
    budget: LiveBudget,
    write: (line: string) => void = (line) => process.stdout.write(line),
  ) {
    this.#service = service;
    this.#budget = budget;
    this.#write = write;
  }

  /** The budget as it stands: requests, 429s, what is left. */
  budgetLine(): string {
    const f = this.#budget.figures;
    const parts = [`${f.requests} requests`, `${f.tooManyRequests} answered 429`];
    if (f.scanBudget !== undefined)
      parts.push(`${Math.max(0, f.scanBudget - (f.scans ?? 0))} of ${f.scanBudget} scans left`);
    if (f.rateLimit) parts.push(`within ${f.rateLimit}`);
    if (this.#budget.stopped) parts.push(`stopped: ${this.#budget.stopped}`);
    return parts.join(' · ');
  }

  line(text: string): void {
    this.#write(`${this.#service} ▸ ${text}\n`);
  }

  /** One operation finished with `verdict` (and a short note). */
  step(operation: string, verdict: string, note?: string): void {
    this.#done++;
    this.line(`${this.#done}/${this.total} ${operation} ${verdict}${note ? ` (${note})` : ''} · ${this.budgetLine()}`);
  }
}
