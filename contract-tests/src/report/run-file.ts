/**
 * The shape of `run.json` (what `run/contract-run.ts` and the nightly read) and of a cause: types only, so the
 * writers (`run-report.ts`, `causes.ts`, `html.ts`) share them without importing each other.
 */
import type { Change } from './history.ts';
import type { RunJudgement } from './states.ts';

/** One distinct reason a service is not green. */
export interface Cause {
  service: string;
  /** One line: what happened. */
  text: string;
  /** One line: what to do, when the cause says it. */
  todo?: string;
  /** The operations (or tools) it was seen on. */
  operations: string[];
  /** An HTTP status that refused the run's credentials (401, 403). */
  refused?: number;
}

/** What `run.json` holds: read by `run/contract-run.ts` and the nightly. */
export interface RunFile extends RunJudgement {
  changes: Change[];
  /** The HTML page of the run. */
  html: string;
  strict: boolean;
  required: string[];
  /** Where the history entry went, and lines about history files left out. */
  history: { dir: string; file: string; notes: string[] };
  /** The failures of the run (first `MAX_FAILURES`), masked: what the nightly's issue lists with reproductions. */
  failures: RunFailure[];
  /** `evidence`: at least one service wrote evidence; `coverage`: states derived from coverage files alone. */
  source: 'evidence' | 'coverage' | 'none';
  /** Why services are not green, one entry per distinct cause (`causes.ts`), masked. */
  causes?: Cause[];
  /** When the run's reports were written (ISO). */
  at?: string;
  /** When each service that wrote evidence started its checks (ISO). */
  started?: { service: string; at: string }[];
}

export interface RunFailure {
  service: string;
  operation: string;
  check: string;
  message: string;
  record?: string;
  url?: string;
  reproduction?: string;
}
