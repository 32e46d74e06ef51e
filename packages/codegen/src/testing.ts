/** Helpers for the service packages' tests of their generated code (`src/generated.test.ts`). */
import { listOperations } from '@agent-apis/specs/src/openapi.ts';
import type { ServiceName } from '@agent-apis/specs/src/services.ts';
import { expect, type Mock, vi } from 'vitest';
import { readFinalSpec } from './final-spec.ts';

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

/** A `fetch` stand-in that answers every request with `body` as JSON. */
export function jsonFetch(body: unknown, status = 200): Mock<typeof fetch> {
  return vi.fn<typeof fetch>(async () => Response.json(body, { status }));
}

/** The one request a {@link jsonFetch} received (fails the test unless it was called exactly once with a Request). */
export function onlyRequest(fetchMock: Mock<typeof fetch>): Request {
  expect(fetchMock).toHaveBeenCalledTimes(1);
  const [input] = fetchMock.mock.calls[0] ?? [];
  expect(input).toBeInstanceOf(Request);
  return input as Request;
}
