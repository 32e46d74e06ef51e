/**
 * Post-processing of generated code held in memory as a file tree (relative `/` path → text): the `.gen.ts`
 * suffix with the relative imports that point at renamed files, pruning of files no entry point imports,
 * and banners.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, posix, relative, sep } from 'node:path';

export type FileTree = Map<string, string>;

/** `from './x.js'`, `import './x.js'`, `import('./x.js')`: relative module specifiers only. */
const RELATIVE_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g;

export async function readTree(dir: string): Promise<FileTree> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  const tree: FileTree = new Map();
  for (const file of files) tree.set(file, await readFile(join(dir, file), 'utf8'));
  return tree;
}

export async function writeTree(dir: string, tree: FileTree): Promise<void> {
  for (const [file, text] of [...tree].sort(([a], [b]) => a.localeCompare(b))) {
    const target = join(dir, ...file.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

/** The text of a file the generators must have written. */
export function textOf(tree: FileTree, file: string): string {
  const text = tree.get(file);
  if (text === undefined) throw new Error(`${file} was not generated`);
  return text;
}

/** The tree file a relative specifier of `importer` points at (`./a.js` → `dir/a.ts`). */
function resolveSpecifier(tree: FileTree, importer: string, specifier: string): string {
  const target = posix.join(posix.dirname(importer), specifier).replace(/\.js$/, '.ts');
  if (!tree.has(target)) throw new Error(`${importer}: import '${specifier}' does not resolve to a generated file`);
  return target;
}

/** Files that `file` imports through relative specifiers. */
function importsOf(tree: FileTree, file: string): string[] {
  const text = tree.get(file) ?? '';
  return [...text.matchAll(RELATIVE_SPECIFIER)].map((match) => resolveSpecifier(tree, file, match[3] as string));
}

function withGenSuffix(file: string): string {
  return file.endsWith('.gen.ts') || !file.endsWith('.ts') ? file : file.replace(/\.ts$/, '.gen.ts');
}

/** Renames every `.ts` file to end in `.gen.ts` and rewrites the relative imports that point at renamed files. */
export function addGenSuffix(tree: FileTree): FileTree {
  const renamed: FileTree = new Map();
  for (const [file, text] of tree) {
    const rewritten = file.endsWith('.ts')
      ? text.replace(RELATIVE_SPECIFIER, (whole, keyword: string, quote: string, specifier: string) => {
          const target = resolveSpecifier(tree, file, specifier);
          if (withGenSuffix(target) === target) return whole;
          return `${keyword}${quote}${specifier.replace(/\.js$/, '.gen.js')}${quote}`;
        })
      : text;
    renamed.set(withGenSuffix(file), rewritten);
  }
  return renamed;
}

/** Drops the files under `folder` that none of `entries` reaches through relative imports. */
export function pruneUnreachable(tree: FileTree, folder: string, entries: readonly string[]): FileTree {
  const reached = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    if (!tree.has(file)) throw new Error(`entry point ${file} was not generated`);
    reached.add(file);
    pending.push(...importsOf(tree, file));
  }
  return new Map([...tree].filter(([file]) => !file.startsWith(`${folder}/`) || reached.has(file)));
}

/** Puts `bannerFor(file)` as the first line of every `.ts` file. */
export function addBanners(tree: FileTree, bannerFor: (file: string) => string): FileTree {
  return new Map(
    [...tree].map(([file, text]) => [file, file.endsWith('.ts') ? `${bannerFor(file)}\n${text}` : text] as const),
  );
}
