/** Checks of a package's generated code against its final spec. */
import { readFinalSpec } from '@agent-apis/codegen/final-spec';
import { listOperations } from '@agent-apis/specs/openapi';
import type { ServiceName } from '@agent-apis/specs/services';
import { expect } from 'vitest';

/** operationIds of the service's final spec, sorted. */
export async function finalSpecOperationIds(service: ServiceName): Promise<string[]> {
  const { document } = await readFinalSpec(service);
  return listOperations(document)
    .map(({ operation }) => operation.operationId ?? '')
    .sort();
}

/** Names of the functions a module exports, sorted. */
export function exportedFunctionNames(module: Record<string, unknown>): string[] {
  return Object.keys(module)
    .filter((name) => typeof module[name] === 'function')
    .sort();
}

/**
 * Checks that the generated operation table lists exactly the operations of the service's final spec, and that
 * `functions` (the generated `api.gen.ts`) exports one function per row. Returns the operationIds, sorted.
 */
export async function expectOneFunctionPerOperation(
  service: ServiceName,
  functions: Record<string, unknown>,
  operations: Record<string, unknown>,
): Promise<string[]> {
  const operationIds = await finalSpecOperationIds(service);
  expect(Object.keys(operations).sort()).toEqual(operationIds);
  expect(exportedFunctionNames(functions)).toEqual(operationIds);
  return operationIds;
}
