/**
 * The suite's layout as its own imports draw it: each folder of `src/` imports only itself and the folders before
 * it in `LAYERS`, so no import runs back and there is no circle. The order is the README's (`src/README.md`).
 */
import { glob, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Lowest first: a folder may import the ones before it (`settings` is `src/settings.ts`). */
const LAYERS = [
  ['settings'],
  ['contract-spec'],
  ['evidence'],
  ['engine'],
  ['checks'],
  ['faults', 'report'],
  ['run'],
] as const;

const SRC = import.meta.dirname;
const rank = (folder: string) => LAYERS.findIndex((layer) => (layer as readonly string[]).includes(folder));
const folderOf = (file: string) => {
  const [first = ''] = relative(SRC, file).split(sep);
  return first.endsWith('.ts') ? 'settings' : first;
};

/** Every relative import of the suite's files: from which folder to which. */
async function imports(): Promise<{ file: string; from: string; to: string }[]> {
  const found = [];
  for await (const path of glob('**/*.ts', { cwd: SRC })) {
    const file = join(SRC, path);
    for (const [, specifier = ''] of (await readFile(file, 'utf8')).matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
      found.push({ file: path, from: folderOf(file), to: folderOf(join(dirname(file), specifier)) });
    }
  }
  return found;
}

describe('the layout of the contract suite', () => {
  it('puts every file in a folder of the layer list', async () => {
    const unknown = (await imports()).filter(({ from, to }) => rank(from) < 0 || rank(to) < 0);
    expect(unknown).toEqual([]);
  });

  it('imports only from its own folder or a folder before it: no import back, no circle', async () => {
    const back = (await imports()).filter(({ from, to }) => from !== to && rank(to) >= rank(from));
    expect(back).toEqual([]);
  });

  it('would see an import back (the check is not blind)', () => {
    expect(rank('report')).toBeGreaterThan(rank('engine'));
    expect(folderOf(join(SRC, 'engine', 'run.ts'))).toBe('engine');
    expect(folderOf(join(SRC, 'settings.ts'))).toBe('settings');
  });
});
