/** Test support for redaction checks: what an error lets a reader see. */

/** Every string an error exposes: message, stack, JSON form and the same along its cause chain (5 levels). */
export function everythingIn(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as Error;
    parts.push(String(e.message), String(e.stack), JSON.stringify(e));
    current = e.cause;
  }
  return parts.join('\n');
}
