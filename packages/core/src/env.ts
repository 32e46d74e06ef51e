/**
 * Environment lookups that also work where there is no `process` (browsers, workers).
 */

/** The value of environment variable `name`, trimmed; undefined when it is unset, blank, or there is no environment. */
export function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name]?.trim();
  return value ? value : undefined;
}
