/**
 * Every error class the clients throw, with `errorClassForStatus` and the types their constructors take: the root
 * entry, `@agent-apis/core`, exports them, and each service package re-exports the root. They are all defined in one
 * file, `internal/call/errors.ts`, which the call path imports too (so `internal/` never imports the face).
 */

export * from './internal/call/errors.js';
