/**
 * Failures as tool errors an agent can act on: what went wrong and what to do, never a credential (the clients
 * redact their errors; any configured secret is scrubbed again here).
 */

/** What to do about an API status. */
function advice(status: number | undefined): string {
  switch (status) {
    case 400:
    case 422:
      return 'Fix the arguments named above and call again.';
    case 401:
      return 'The server’s credentials were rejected: the operator must check the environment variables (nothing the agent can change).';
    case 403:
      return 'The credentials lack the permission for this operation.';
    case 404:
      return 'No such record: check the id (list or search first).';
    case 409:
      return 'A conflicting call is in progress: call again shortly.';
    case 429:
      return 'The API’s rate limit or quota is spent: wait before calling again.';
    default:
      return status !== undefined && status >= 500 ? 'The API failed: call again later.' : '';
  }
}

/** `text` with every secret of at least 4 characters replaced by `[redacted]`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** The message of a failed call: the error's class and message, then advice by status. */
export function describeFailure(error: unknown, secrets: readonly string[]): string {
  const status = (error as { status?: unknown }).status;
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const hint = advice(typeof status === 'number' ? status : undefined);
  return scrub(`${name}: ${message}${hint ? ` ${hint}` : ''}`, secrets);
}
