/**
 * Opt-in response validation: checks a successful JSON response against the schema generated for its
 * operation (zod, or anything with the same `safeParse`), so a drifting server fails loudly instead of
 * handing the caller a shape its types do not describe.
 */
import { AgentApiError } from './input-errors.js';

export { ResponseParseError } from './input-errors.js';

/** The part of a zod schema the validator uses. */
export interface SchemaLike {
  safeParse(value: unknown): {
    success: boolean;
    /** Set when `success` is false. */
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } | undefined;
  };
}

/** One way the response differs from its schema. */
export interface ResponseIssue {
  /** Path into the body, e.g. `results.0.stars` (empty for the body itself). */
  path: string;
  message: string;
}

/** A successful response whose body does not match the operation's schema. */
export class ResponseValidationError extends AgentApiError {
  override name = 'ResponseValidationError';
  readonly operation: string;
  readonly status: number;
  readonly issues: readonly ResponseIssue[];

  constructor(operation: string, status: number, issues: readonly ResponseIssue[]) {
    const first = issues[0];
    const where = first ? `${first.path || '(body)'}: ${first.message}` : 'unknown problem';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`Response of ${operation} (${status}) does not match its schema at ${where}${more}`);
    this.operation = operation;
    this.status = status;
    this.issues = issues;
  }
}
