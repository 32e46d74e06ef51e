/**
 * Opt-in response validation: checks a successful JSON response against the schema generated for its
 * operation (zod, or anything with the same `safeParse`), so a drifting server fails loudly instead of
 * handing the caller a shape its types do not describe.
 */
import { AgentApiError } from './errors.js';

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

/**
 * A successful response whose body is not the JSON its operation promises: it does not parse (cut short), or it
 * came as another content type (an HTML error page behind a proxy, say). The
 * parser's own message is left out on purpose: it quotes the start of the body, which may echo a credential.
 */
export class ResponseParseError extends AgentApiError {
  override name = 'ResponseParseError';
  readonly operation: string;

  constructor(operation: string, route: string, problem = 'is not valid JSON') {
    super(`Response of ${operation} (${route}) ${problem}`);
    this.operation = operation;
  }
}

/**
 * A `validateResponse` hook of the transport: `schemaFor(operationId)` returns the success-response
 * schema (or undefined to skip, e.g. for non-JSON bodies). It may be async so that schemas load lazily and stay
 * out of bundles that never validate.
 */
export function schemaResponseValidator(
  schemaFor: (operation: string) => SchemaLike | undefined | Promise<SchemaLike | undefined>,
): (response: Response, context: { readonly operation: string }) => Promise<void> {
  return async (response, context) => {
    if (response.status === 204 || !(response.headers.get('content-type') ?? '').includes('json')) return;
    const schema = await schemaFor(context.operation);
    if (!schema) return;
    const body: unknown = await response.clone().json();
    const result = schema.safeParse(body);
    if (!result.success) {
      throw new ResponseValidationError(
        context.operation,
        response.status,
        (result.error?.issues ?? []).map((issue) => ({
          path: issue.path.map(String).join('.'),
          message: issue.message,
        })),
      );
    }
  };
}
