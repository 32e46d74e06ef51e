/**
 * What this package may import (README, "What may import what"): the packages below the suite only, and the client
 * packages only from `pnpm mock` (the names of the variables it prints, and its test as a client would).
 * The stand-ins route by codegen's manifest.
 */
import { glob, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const CLIENTS = /^@agent-apis\/(directory|store|trust|mcp|mcp-server)(\/|$)/;
const MAY_IMPORT_CLIENTS = (file: string) => file.startsWith('mock/');

async function packageImports(): Promise<{ file: string; specifier: string }[]> {
  const found = [];
  for await (const file of glob('**/*.ts', { cwd: import.meta.dirname })) {
    const text = await readFile(`${import.meta.dirname}/${file}`, 'utf8');
    for (const [, specifier = ''] of text.matchAll(/(?:from|import\()\s*'(@agent-apis\/[^']+)'/g)) {
      found.push({ file, specifier });
    }
  }
  return found;
}

describe('the imports of test-servers', () => {
  it('imports only the workspace packages below the suite: specs, test-utils, core, codegen and, in mock/, the clients', async () => {
    const imports = await packageImports();
    expect(imports.length).toBeGreaterThan(0);
    const below = /^@agent-apis\/(specs|test-utils|core|codegen)(\/|$)/;
    expect(imports.filter(({ specifier }) => !below.test(specifier) && !CLIENTS.test(specifier))).toEqual([]);
  });

  it('imports client packages only from pnpm mock', async () => {
    const imports = await packageImports();
    expect(imports.some(({ specifier }) => CLIENTS.test(specifier))).toBe(true);
    expect(imports.filter(({ file, specifier }) => CLIENTS.test(specifier) && !MAY_IMPORT_CLIENTS(file))).toEqual([]);
  });
});
