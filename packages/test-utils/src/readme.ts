/** Helpers of the README tests: every example of a README is a file of `examples/`, embedded verbatim and run. */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, vi } from 'vitest';

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
