/**
 * Opt-in response validation: checks a successful JSON response against the schema generated for its
 * operation (zod, or anything with the same `safeParse`), so a drifting server fails loudly instead of
 * handing the caller a shape its types do not describe.
 */
export { type ResponseIssue, ResponseParseError, ResponseValidationError } from './input-errors.js';

/** The part of a zod schema the validator uses. */
export interface SchemaLike {
  safeParse(value: unknown): {
    success: boolean;
    /** Set when `success` is false. */
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } | undefined;
  };
}
