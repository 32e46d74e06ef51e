/**
 * What a client starts from: environment lookups that also work where there is no `process` (browsers, workers) or
 * where reading it is refused (Deno without `--allow-env`), and the limits that hold unless options say otherwise.
 */

/** The value of environment variable `name`, trimmed; undefined when it is unset, blank, or there is no environment. */
export function readEnv(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const value = env?.[name]?.trim();
    return value ? value : undefined;
  } catch {
    // A sandbox that denies environment access (Deno without --allow-env throws NotCapable) has no value to give.
    return undefined;
  }
}

/** Environment variable every client reads its log level from when `logLevel` is not given. */
export const LOG_ENV_VAR = 'AGENT_APIS_LOG';

/** The whole call's deadline (retries included) unless configured otherwise: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The longest delay `setTimeout` takes as it is (a longer one fires after 1 ms): longer waits go in steps. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Largest response body read unless configured otherwise: 8 MiB, counted after decompression. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
