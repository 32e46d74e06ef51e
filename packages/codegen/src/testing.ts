/** Helpers shared by the packages' tests: of their generated code and of the examples their READMEs embed. */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { listOperations } from '@agent-apis/specs/openapi';
import type { ServiceName } from '@agent-apis/specs/services';
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

/**
 * Checks that the generated SDK exports one function per operation of the service's final spec, and that the
 * operations table lists exactly those operations. Returns the operationIds, sorted.
 */
export async function expectOneSdkFunctionPerOperation(
  service: ServiceName,
  sdk: Record<string, unknown>,
  operations: Record<string, unknown>,
): Promise<string[]> {
  const operationIds = await finalSpecOperationIds(service);
  expect(exportedFunctionNames(sdk)).toEqual(operationIds);
  expect(Object.keys(operations).sort()).toEqual(operationIds);
  return operationIds;
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

/** A README block `<!-- example: name -->` fenced as ts, closed by `<!-- /example -->`: its name and code. */
const EXAMPLE_BLOCK = /<!-- example: ([\w-]+) -->\n```ts\n([\s\S]*?)```\n<!-- \/example -->/g;

/** Names of the files in `examples/` of the package at `packageRoot` (without `.ts`), sorted. */
export async function exampleNames(packageRoot: URL): Promise<string[]> {
  const files = await readdir(new URL('examples/', packageRoot));
  return files
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
}

/** Checks that the package's README embeds every file of `examples/` exactly once, verbatim, and no other example. */
export async function expectReadmeToEmbedEveryExample(packageRoot: URL): Promise<void> {
  const readme = await readFile(new URL('README.md', packageRoot), 'utf8');
  const blocks = [...readme.matchAll(EXAMPLE_BLOCK)].map(([, name = '', code]) => ({ name, code }));
  expect(blocks.map(({ name }) => name).sort()).toEqual(await exampleNames(packageRoot));
  for (const { name, code } of blocks) {
    expect(code, `README block "${name}"`).toBe(await readFile(new URL(`examples/${name}.ts`, packageRoot), 'utf8'));
  }
}

/** Runs `examples/<name>.ts` of the package at `packageRoot` and returns the lines it printed with `console.log`. */
export async function runExample(packageRoot: URL, name: string): Promise<string[]> {
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    printed.push(parts.join(' '));
  });
  try {
    await import(fileURLToPath(new URL(`examples/${name}.ts`, packageRoot)));
  } finally {
    log.mockRestore();
  }
  return printed;
}
