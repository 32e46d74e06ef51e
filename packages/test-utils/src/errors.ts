/** Test support for errors: what `run` throws, and what an error lets a reader see (redaction checks). */

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

/**
 * The error `run` throws synchronously when it is a `type`; any other error is thrown on, and a `run` that throws
 * nothing fails with an error naming `type`.
 */
export function thrownBy<T>(run: () => unknown, type: abstract new (...args: never[]) => T): T {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}
