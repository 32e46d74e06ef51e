/**
 * Reading the wait a server asks for, apart from the retry rules: the call path reads it for an error's `retryAfter`
 * (`error-response.ts`) and the rate limiter for its pause.
 */

/**
 * The wait a server asked for, in ms: `retry-after-ms` first, then `Retry-After` as delta seconds or an HTTP
 * date (relative to `now`). Undefined when absent or unparseable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = parseNonNegativeNumber(headers.get('retry-after-ms'));
  if (milliseconds !== undefined) return milliseconds;
  const retryAfter = headers.get('retry-after')?.trim();
  if (!retryAfter) return undefined;
  const seconds = parseNonNegativeNumber(retryAfter);
  if (seconds !== undefined) return Math.round(seconds * 1000);
  const date = /[a-z]/i.test(retryAfter) ? Date.parse(retryAfter) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseNonNegativeNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
