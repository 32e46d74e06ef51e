/**
 * Every number a contract run reads from a `CONTRACT_*` variable, read in one place with its range: a value out
 * of range or not a number is refused before anything is sent, with an error naming the variable, its range and
 * what it got (a typo must not lift a limit: `CONTRACT_SAMPLE=1e6` would look up a million records).
 *
 * | variable                   | meaning                                                      | range        | default |
 * | -------------------------- | ------------------------------------------------------------ | ------------ | ------- |
 * | CONTRACT_SAMPLE            | records looked up per lookup operation                       | 1–100        | 10      |
 * | CONTRACT_PAGES             | list pages read between the first and the last               | 0–20         | 3       |
 * | CONTRACT_SEED              | the seed that picks those pages (printed with every run)     | 0–4294967295 | random  |
 * | CONTRACT_TIMEOUT           | seconds one request may take, answer included                | 1–600        | 60      |
 * | CONTRACT_MAX_RETRY_AFTER   | the longest `Retry-After` waited out, in seconds             | 0–600        | 120     |
 * | CONTRACT_TRUST_BUDGET      | trust scans a run may spend (a free key has 150 a month)     | 0–150        | 3       |
 * | CONTRACT_HISTORY_NIGHTS    | runs kept in the history of each target                      | 2–1000       | 30      |
 * | CONTRACT_STORE_RATE_LIMIT  | the store's limits, `<n>/s,<m>/min`                          | 1–1000 /s, 1–100000 /min | 20/s,800/min |
 * | CONTRACT_TOOL_CALLS_PER_SECOND | tool calls a second in live mode (`checks/mcp.contract.test.ts`) | 1–1000 | 1 beside a REST store run, else 10 |
 * | CONTRACT_FLOOR_<SERVICE>   | `reads=`, `min=`, `lookups=` of a service's evidence floor (`evidence.ts`) | 0–its operations | the floor |
 *
 * `contractNumber(env, name)` reads one of them with its range and default; nothing else parses these variables.
 * The run's target (`contractTarget`), where its reports go (`REPORTS_DIR`) and whether warnings fail
 * (`strictMode`) are read here too.
 */
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** What a run checks: a live service with CONTRACT_TARGET=live, else the Prism mock of each final spec. */
export function contractTarget(env: Env = process.env): 'mock' | 'live' {
  return env.CONTRACT_TARGET === 'live' ? 'live' : 'mock';
}

/** CONTRACT_STRICT=1 (or `true`): a warning fails the service too. */
export function strictMode(env: Env = process.env): boolean {
  return ['1', 'true'].includes((env.CONTRACT_STRICT ?? '').trim().toLowerCase());
}

/** Where reports go: `contract-tests/reports`, or CONTRACT_REPORTS_DIR. */
export const REPORTS_DIR = process.env.CONTRACT_REPORTS_DIR || join(import.meta.dirname, '..', 'reports');

export class SettingError extends Error {
  override name = 'SettingError';
}

export interface NumberRange {
  min: number;
  max: number;
  /** Whole numbers only (default true). */
  integer?: boolean;
  /** What the number counts, for the error (`records`, `seconds`). */
  unit?: string;
}

/** Reads `text` as a number in `range`, or throws naming `name`, the range and the value. */
export function boundedNumber(name: string, text: string, range: NumberRange): number {
  const integer = range.integer !== false;
  const trimmed = text.trim();
  // Plain decimal notation only: `1e6`, `0x10`, `Infinity` and the empty string are refused, not converted.
  const plain = integer ? /^-?\d+$/.test(trimmed) : /^-?\d+(\.\d+)?$/.test(trimmed);
  const value = Number(trimmed);
  if (!plain || !Number.isFinite(value) || value < range.min || value > range.max) {
    const kind = integer ? 'a whole number' : 'a number';
    const unit = range.unit ? ` ${range.unit}` : '';
    throw new SettingError(`${name} must be ${kind} from ${range.min} to ${range.max}${unit}, got "${text}"`);
  }
  return value;
}

/** `env[name]` as a number in `range`, `fallback` when unset or empty. */
export function envNumber(
  env: Record<string, string | undefined>,
  name: string,
  range: NumberRange,
  fallback: number,
): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  return boundedNumber(name, text, range);
}

export const RANGES = {
  CONTRACT_SAMPLE: { min: 1, max: 100, unit: 'records' },
  CONTRACT_PAGES: { min: 0, max: 20, unit: 'pages' },
  CONTRACT_SEED: { min: 0, max: 4_294_967_295 },
  CONTRACT_TIMEOUT: { min: 1, max: 600, unit: 'seconds' },
  CONTRACT_MAX_RETRY_AFTER: { min: 0, max: 600, unit: 'seconds' },
  CONTRACT_TRUST_BUDGET: { min: 0, max: 150, unit: 'scans' },
  CONTRACT_HISTORY_NIGHTS: { min: 2, max: 1_000, unit: 'nights' },
  CONTRACT_TOOL_CALLS_PER_SECOND: { min: 1, max: 1_000, unit: 'tool calls a second' },
  perSecond: { min: 1, max: 1000, unit: 'requests a second' },
  perMinute: { min: 1, max: 100_000, unit: 'requests a minute' },
} satisfies Record<string, NumberRange>;

/** The `CONTRACT_*` numbers with a range and a default (the seed's default is random: `sampling.ts`). */
export type ContractNumberName =
  | 'CONTRACT_SAMPLE'
  | 'CONTRACT_PAGES'
  | 'CONTRACT_TIMEOUT'
  | 'CONTRACT_MAX_RETRY_AFTER'
  | 'CONTRACT_TRUST_BUDGET'
  | 'CONTRACT_HISTORY_NIGHTS';

/** The default of each `CONTRACT_*` number (the table above). */
export const DEFAULTS = {
  CONTRACT_SAMPLE: 10,
  CONTRACT_PAGES: 3,
  CONTRACT_TIMEOUT: 60,
  CONTRACT_MAX_RETRY_AFTER: 120,
  CONTRACT_TRUST_BUDGET: 3,
  CONTRACT_HISTORY_NIGHTS: 30,
} as const satisfies Record<ContractNumberName, number>;

/** `env[name]` within its range (`RANGES`), its default (`DEFAULTS`) when unset or empty; refused otherwise. */
export function contractNumber(
  env: Record<string, string | undefined>,
  name: ContractNumberName,
  range: NumberRange = RANGES[name],
): number {
  return envNumber(env, name, range, DEFAULTS[name]);
}

/** A rate limit `<n>/s,<m>/min` (either part may be left out: 20/s and 800/min by default). */
export function rateLimitSetting(name: string, text: string): { perSecond: number; perMinute: number } {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  let perSecond = 20;
  let perMinute = 800;
  if (parts.length === 0) throw new SettingError(`${name} must read like 20/s,800/min, got "${text}"`);
  for (const part of parts) {
    const match = /^(\S+?)\s*\/\s*(s|min)$/.exec(part);
    if (!match) throw new SettingError(`${name} must read like 20/s,800/min, got "${text}"`);
    const [, count = '', window] = match;
    if (window === 's') perSecond = boundedNumber(`${name} (per second)`, count, RANGES.perSecond);
    else perMinute = boundedNumber(`${name} (per minute)`, count, RANGES.perMinute);
  }
  return { perSecond, perMinute };
}

/**
 * The services CONTRACT_ALLOW_WRITES names (`store`, `store,directory`). The old global switch (`1`, `true`) is
 * refused with an error rather than read as "every service".
 */
export function writeServices(env: Env = process.env): Set<string> {
  const names = (env.CONTRACT_ALLOW_WRITES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !['directory', 'store', 'trust'].includes(name));
  if (unknown.length > 0) {
    throw new SettingError(
      `CONTRACT_ALLOW_WRITES names services, one by one (e.g. CONTRACT_ALLOW_WRITES=store); not ${unknown.join(', ')}`,
    );
  }
  return new Set(names);
}
