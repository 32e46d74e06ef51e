/**
 * Checks of a package's generated code against its final spec. The spec's operationIds come from the caller
 * (`finalSpecOperationIds` of `@agent-apis/codegen/final-spec`), so these helpers depend on no workspace package:
 * `@agent-apis/specs` tests with them, and codegen depends on specs.
 */
import { expect } from 'vitest';

/** Names of the functions a module exports, sorted. */
export function exportedFunctionNames(module: Record<string, unknown>): string[] {
  return Object.keys(module)
    .filter((name) => typeof module[name] === 'function')
    .sort();
}

/**
 * Checks that the generated operation table lists exactly `operationIds` (the final spec's, sorted), and that
 * `functions` (the generated `api.gen.ts`) exports one function per row. Returns the operationIds.
 */
export function expectOneFunctionPerOperation(
  operationIds: readonly string[],
  functions: Record<string, unknown>,
  operations: Record<string, unknown>,
): readonly string[] {
  expect(Object.keys(operations).sort()).toEqual(operationIds);
  expect(exportedFunctionNames(functions)).toEqual(operationIds);
  return operationIds;
}
