/**
 * Every error class the clients throw, with `errorClassForStatus` and the types their constructors take: the root
 * entry, `@agent-apis/core`, exports them, and each service package re-exports the root. They live in two files the
 * call path imports too (so `internal/` never imports the face), split by when a client needs them:
 * `internal/call/errors.ts` (the base and the errors raised before anything is sent, loaded at import) and
 * `internal/call/answer-errors.ts` (the errors of a call under way, loaded with the first call).
 */

export * from './internal/call/answer-errors.js';
export * from './internal/call/errors.js';
