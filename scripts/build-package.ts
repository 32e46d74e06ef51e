/**
 * `node ../../scripts/build-package.ts`: the `build` of every published package, run in the package's folder after
 * `scripts/clean-dist.ts` has emptied its `dist`.
 *
 * 1. Entries: every `exports` target and `bin` of its package.json, `./dist/<name>.js` built from `src/<name>.ts`;
 *    the package's row of `scripts/layout.ts` must name the same entries, and its seams those of the source.
 * 2. rolldown bundles them into `dist/` as ES modules, laid out by the package's row of `scripts/layout.ts` (who
 *    loads each entry, how each seam loads) and by the import graph: see {@link chunkPlan}. Every bare import stays
 *    external: sibling `@agent-apis/*` packages (their errors stay one class across packages), npm dependencies,
 *    `node:` built-ins. Chunks are named after their first module, without a hash, and sit beside the entries, so a
 *    relative `import()` written in the source still resolves.
 * 3. When the row asks for it, rolldown bundles the entries a second time into `dist/node/`, laid out for a runtime
 *    that loads modules file by file (Node, Bun, Deno): see {@link nodeChunkPlan}.
 * 4. `tsc -p tsconfig.build.json` (`emitDeclarationOnly`) writes the declarations; those that no entry's
 *    declaration reaches are removed, with whatever else no entry reaches, so `dist` holds what is shipped.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, posix, relative } from 'node:path';
import { promisify } from 'node:util';
import { type ChunkingContext, type OutputChunk, type Plugin, RUNTIME_MODULE_ID, rolldown } from 'rolldown';
import { LAYOUTS, SMALL_MODULE_CHARS } from './layout.ts';
import { binTargets, exportTargets, reachableModules } from './tarball-size.ts';

const run = promisify(execFile);

interface Manifest {
  name?: string;
  exports?: unknown;
  bin?: unknown;
}

/** A package's row of `scripts/layout.ts` as module ids (those of `src/<name>.ts`). */
interface Policy {
  rootId: string | undefined;
  mainId: string | undefined;
  firstCall: ReadonlySet<string>;
  callPath: string | undefined;
  optional: ReadonlySet<string>;
  seams: ReadonlySet<string>;
  /** The entries of the Node layout, by name; none when the package ships none. */
  node: ReadonlySet<string>;
}

/** The package's row of the layout table, checked against its `exports` and `bin`. */
function policyOf(manifest: Manifest, entries: Record<string, string>, packageDir: string): Policy {
  const row = LAYOUTS[manifest.name ?? ''];
  if (row === undefined) throw new Error(`${manifest.name}: no row in scripts/layout.ts`);
  const listed = Object.keys(row.entries).sort().join(', ');
  if (listed !== Object.keys(entries).sort().join(', '))
    throw new Error(`${manifest.name}: scripts/layout.ts lists the entries ${listed}, exports and bin declare others`);
  const id = (name: string) => join(packageDir, 'src', `${name}.ts`);
  const named = (table: Record<string, string>, wanted: string) =>
    Object.keys(table)
      .filter((name) => table[name] === wanted)
      .map(id);
  const node = new Set(row.node ? Object.keys(row.entries).filter((name) => row.entries[name] !== 'standalone') : []);
  // Each entry of the Node layout resolves there under `node`, before `default`; no other entry has the condition.
  for (const [subpath, conditions] of Object.entries((manifest.exports ?? {}) as Record<string, unknown>)) {
    const { node: target, default: main } = (typeof conditions === 'object' ? conditions : {}) as Record<
      string,
      unknown
    >;
    const name = BUILT_MODULE.exec(String(main))?.[1] ?? '';
    const wanted = node.has(name) ? `./dist/${NODE_LAYOUT_DIR}/${name}.js` : undefined;
    const keys = Object.keys(conditions as object);
    if (target !== wanted || keys.indexOf('node') > keys.indexOf('default'))
      throw new Error(
        `${manifest.name}: exports ${subpath} needs ${wanted ? `"node": "${wanted}" before "default"` : 'no "node"'}`,
      );
  }
  return {
    rootId: named(row.entries, 'root')[0],
    mainId: named(row.entries, 'main')[0],
    firstCall: new Set(named(row.entries, 'first-call')),
    callPath: named(row.seams, 'call-path')[0],
    optional: new Set(named(row.seams, 'optional')),
    seams: new Set(Object.keys(row.seams).map(id)),
    node,
  };
}

const BUILT_MODULE = /^\.\/dist\/(.+)\.js$/;

/** The folder of the Node layout under `dist/` (step 3 above). */
export const NODE_LAYOUT_DIR = 'node';
const NODE_MODULE = new RegExp(`^\\./dist/${NODE_LAYOUT_DIR}/(.+)\\.js$`);

/**
 * The entries of a package: `./dist/<name>.js` of its `exports` and `bin` → `src/<name>.ts`, keyed by `<name>`.
 * Declarations (`.d.ts`) and `./package.json` are no entries; any other target outside `./dist/*.js` is an error.
 */
export function entriesOf(manifest: Manifest): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const target of [...exportTargets(manifest.exports), ...binTargets(manifest.bin)]) {
    if (target.endsWith('.d.ts') || target === './package.json' || NODE_MODULE.test(target)) continue;
    const name = BUILT_MODULE.exec(target)?.[1];
    if (name === undefined) throw new Error(`${manifest.name}: entry ${target} is not ./dist/<name>.js`);
    entries[name] = `src/${name}.ts`;
  }
  return entries;
}

/** A bare specifier (a package or a built-in): left to the consumer's resolver. */
function isExternal(id: string): boolean {
  return !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0');
}

const NODE_BUILTINS = new Set(builtinModules);

/** Files under `dir`, as paths relative to it with `/` separators. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** Removes the folders under `dir` left empty (deepest first). */
async function removeEmptyFolders(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) if ((await readdir(folder)).length === 0) await rmdir(folder);
}

/**
 * The chunk of code that entries load at import and share: one per package, so each class is defined once. It is
 * the `main` entry's own chunk (core's `service.js`) when the package has one.
 */
export const SHARED_CHUNK = 'shared';

interface GraphModule {
  imports: string[];
  dynamicImports: string[];
}

/**
 * Where each module of the package goes, from its import graph: a chunk name, or `null` to leave the module where
 * rolldown puts it by itself (inside the one entry or the one seam that uses it). Heads are the entries and the
 * seams of the layout table; each head is a module of its own.
 * - Loaded at import (reached by an entry other than the root, or by the root when no seam that also reaches it is
 *   loaded by another entry) and used by more than one head: the shared chunk when the `main` entry loads it; else
 *   a chunk for the heads that use it, named after its first module, so an entry that needs a little of the call
 *   path does not load the rest with it. Used by one entry alone: that entry.
 * - Otherwise used by seams only (the root may re-export it, as core's index does; the other entries must not load
 *   it at import): the seam that reaches most of the package, which keeps the seam's own name. A seam is named by
 *   its path under `src/` (`cache`, `rate-limit-fleet`, …), so it is written where its source sits.
 * - A `first-call` entry counts as a user of the `call-path` seam, not as an import: what that seam shares with
 *   them or with other seams goes into one chunk beside the seam's, named after its first module, and a small
 *   module only such entries and other seams use joins it too (`SMALL_MODULE_CHARS`).
 * - Reached by the root alone: the root.
 */
function chunkPlan(
  entryIds: ReadonlySet<string>,
  policy: Policy,
  lookup: ChunkingContext['getModuleInfo'],
): Map<string, string | null> {
  const { rootId, mainId: mainEntry, callPath: firstCallSeam } = policy;
  const modules = new Map<string, GraphModule>();
  const queue = [...entryIds];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (modules.has(id) || isExternal(id)) continue;
    const info = lookup(id);
    if (!info) continue;
    const imports = info.importedIds.filter((imported) => !isExternal(imported));
    const dynamicImports = info.dynamicallyImportedIds.filter((imported) => !isExternal(imported));
    modules.set(id, { imports, dynamicImports });
    queue.push(...imports, ...dynamicImports);
  }
  const seams = new Set([...modules.values()].flatMap((module) => module.dynamicImports));
  for (const id of entryIds) seams.delete(id);
  const [found, listed] = [[...seams].map(chunkName).sort(), [...policy.seams].map(chunkName).sort()];
  if (found.join() !== listed.join())
    throw new Error(`the package's import()s reach ${found.join(', ')}; scripts/layout.ts lists ${listed.join(', ')}`);
  // An entry that the package's own code imports too (core's `errors.ts`) is no head: its module goes where its users
  // put it, and its entry file re-exports it from there, so no two chunks import each other.
  const importedEntries = new Set([...modules.values()].flatMap((module) => module.imports));
  const heads = new Set([...[...entryIds].filter((id) => !importedEntries.has(id)), ...seams]);
  /** What loads with `head`: its static imports, not going into another head (a module of its own). */
  const closure = (head: string): Set<string> => {
    const reached = new Set<string>();
    const visit = (id: string) => {
      if (reached.has(id)) return;
      reached.add(id);
      for (const imported of modules.get(id)?.imports ?? []) if (!heads.has(imported)) visit(imported);
    };
    visit(head);
    return reached;
  };
  const entryReach = new Map([...entryIds].map((id) => [id, closure(id)]));
  /** What `entry`'s code uses, beyond what its file only re-exports: the reach of the modules it imports. */
  const usedBy = (entry: string): Set<string> =>
    new Set(
      (modules.get(entry)?.imports ?? [])
        .filter((imported) => !heads.has(imported))
        .flatMap((imported) => [...closure(imported)].filter((id) => id !== imported)),
    );
  const seamReach = new Map(
    [...seams]
      .map((id) => [id, closure(id)] as const)
      .sort(([a, reachedA], [b, reachedB]) => reachedB.size - reachedA.size || (a < b ? -1 : 1)),
  );
  const mainUses = mainEntry === undefined ? new Set<string>() : usedBy(mainEntry);
  const plan = new Map<string, string | null>();
  /** Seams that need a named group: some module goes with them that rolldown would put elsewhere. */
  const grouped = new Set<string>();
  const rootShared = new Map<string, string[]>();
  const withCallPath: string[] = [];
  for (const id of modules.keys()) {
    if (heads.has(id)) continue;
    const reachedBy = [...entryReach].filter(([, reached]) => reached.has(id)).map(([entry]) => entry);
    // A first-call entry is loaded with the call path, so it counts as a user of that seam, not as an import.
    const byEntries = reachedBy.filter((entry) => !policy.firstCall.has(entry));
    const byFirstCallEntries = reachedBy.length - byEntries.length;
    const bySeams = [...seamReach].filter(([, reached]) => reached.has(id)).map(([seam]) => seam);
    if (
      byEntries.length === 0 &&
      byFirstCallEntries > 0 &&
      firstCallSeam !== undefined &&
      !bySeams.includes(firstCallSeam)
    ) {
      // Only first-call entries and other seams use it. A small one joins what the call path shares: a module of its
      // own costs a cold process more to load than its code; a large one is left where rolldown keeps it, with them.
      const small = (lookup(id)?.code?.length ?? Number.POSITIVE_INFINITY) <= SMALL_MODULE_CHARS;
      if (small) withCallPath.push(id);
      else plan.set(id, null);
      continue;
    }
    const atImport = byEntries.length > 0;
    const seam = bySeams[0];
    if (atImport) {
      if (byEntries.length === 1 && bySeams.length === 0 && byEntries[0] !== mainEntry) plan.set(id, null);
      // Used at import by the root alone and by its seams: apart from the root, as a bundler of the application
      // would keep it, so that what only a seam uses of it stays out of what the application loads at import.
      else if (byEntries.every((entry) => entry === rootId)) {
        const key = bySeams.join('\n');
        const group = rootShared.get(key) ?? [];
        rootShared.set(key, [...group, id]);
      } else if (
        mainEntry === undefined
          ? bySeams.length === 0
          : byEntries.includes(mainEntry) &&
            (bySeams.length === 0 || [...closure(id)].some((used) => mainUses.has(used)))
      )
        plan.set(id, SHARED_CHUNK);
      else {
        // Loaded at import by other entries only, or only re-exported by the main entry: grouped by the heads that use
        // it, so an importer that needs a little of the call path (trust's guard) does not load what only the call
        // path and another entry share.
        const key = [...byEntries, ...bySeams].join('\n');
        const group = rootShared.get(key) ?? [];
        rootShared.set(key, [...group, id]);
      }
    } else if (seam === undefined) plan.set(id, null);
    else if (seam === firstCallSeam && (bySeams.length > 1 || byEntries.length > 0 || byFirstCallEntries > 0))
      withCallPath.push(id);
    else {
      // rolldown puts a module one seam uses in that seam's chunk, unless the root uses it too (then in the root).
      if (bySeams.length > 1 || byEntries.length > 0) grouped.add(seam);
      plan.set(id, seam);
    }
  }
  // What the call path shares with the first-call entries and other seams: one chunk the call path's own imports
  // statically, not the call path's chunk itself. A bundler keeps every export of a module an `import()` names, so
  // in the seam's chunk these would all stay in a bundle that uses none of the entries (a Worker's whole graph).
  if (withCallPath.length > 0) {
    const name = chunkName([...withCallPath].sort()[0] as string);
    for (const id of withCallPath) plan.set(id, name);
  }
  // Modules the root and the same seams use form one chunk, named after the first of them: an application's bundler
  // would keep them together too (they are loaded, or left to the seams, by the same imports).
  for (const group of rootShared.values()) {
    const name = chunkName([...group].sort()[0] as string);
    for (const id of group) plan.set(id, name);
  }
  for (const id of heads) plan.set(id, grouped.has(id) ? chunkName(id) : null);
  // The main entry is the shared chunk itself, not a module in front of it: one file fewer for every cold start. It
  // is the entry the sibling packages import the internals through (core's `service`), so the names the other chunks
  // import from it are exports of that file too; its declarations still show only its own.
  if (mainEntry !== undefined && [...plan.values()].includes(SHARED_CHUNK)) plan.set(mainEntry, SHARED_CHUNK);
  for (const [id, seam] of plan) {
    if (seam !== null && seam !== SHARED_CHUNK && heads.has(seam))
      plan.set(id, grouped.has(seam) ? chunkName(seam) : null);
  }
  return plan;
}

/**
 * Where each module goes in the Node layout (`dist/node/`). A process that loads modules file by file pays for each
 * file (about 1 to 2 ms cold, resolving, reading and linking it: more than compiling 30 kB of code), and an `import()`
 * costs it more than a static import; what a bundler of an application needs (the call path in a module of its own,
 * left to the first call) is what it does not. So an entry takes with it every module of the package it reaches,
 * through static imports and `import()` alike: the main entry first (core's `service`, which the other entries'
 * modules share, else the root), then each other entry what is left to it alone; what two other entries reach goes
 * with the main entry too. The package's seams still load with `import()`, from the chunk already loaded; the
 * `optional` seams (the Redis tiers) keep chunks of their own. A cold start then loads a handful of files: each
 * package's main entry, and core's other entries as small modules that re-export from core's `service`.
 */
function nodeChunkPlan(
  entryIds: ReadonlySet<string>,
  mainId: string,
  rootId: string | undefined,
  optional: ReadonlySet<string>,
  lookup: ChunkingContext['getModuleInfo'],
): Map<string, string | null> {
  /** Every module of the package `from` reaches, statically or through `import()` (of a seam not optional). */
  const reach = (from: string): Set<string> => {
    const reached = new Set<string>();
    const queue = [from];
    while (queue.length > 0) {
      const id = queue.pop() as string;
      if (reached.has(id) || isExternal(id)) continue;
      const info = lookup(id);
      if (!info) continue;
      reached.add(id);
      queue.push(...info.importedIds, ...info.dynamicallyImportedIds.filter((seam) => !optional.has(seam)));
    }
    return reached;
  };
  // A group that holds an entry's module is written as that entry (its file, its name): the group's own name only
  // has to be unique. The main entry's is the shared chunk's, as in the layout for bundlers.
  const groupOf = (entry: string) => (entry === mainId ? SHARED_CHUNK : `${SHARED_CHUNK}-${chunkName(entry)}`);
  const plan = new Map<string, string | null>();
  for (const id of reach(mainId)) plan.set(id, groupOf(mainId));
  // Another entry the main one reaches (core's `index`) stays a module of its own: a group is written as
  // one entry only, so such an entry must hold re-exports alone (the check of static cycles catches one that does not).
  for (const id of entryIds) if (id !== mainId && plan.has(id)) plan.set(id, null);
  // Each other entry takes what it alone reaches; what two of them reach joins the main entry's (a Node process has
  // that file loaded already). The root re-exports the others (core's index): it takes only what is left.
  const rootLast = [...entryIds]
    .filter((id) => id !== mainId && !plan.has(id))
    .sort((a, b) => Number(a === rootId) - Number(b === rootId));
  const reachedBy = new Map<string, string[]>();
  for (const entry of rootLast) {
    if (entry === rootId) break;
    for (const id of reach(entry)) if (!plan.has(id)) reachedBy.set(id, [...(reachedBy.get(id) ?? []), entry]);
  }
  for (const [id, entries] of reachedBy) plan.set(id, groupOf(entries.length === 1 ? (entries[0] as string) : mainId));
  if (rootId !== undefined && rootId !== mainId && !plan.has(rootId)) {
    for (const id of reach(rootId)) if (!plan.has(id)) plan.set(id, groupOf(rootId));
  }
  return plan;
}

let sourceDir = '';

/** A seam's chunk: its path under `src/` without the extension, so it lands where its source sits. */
function chunkName(id: string): string {
  return relative(sourceDir, id)
    .replace(/\.[cm]?tsx?$/, '')
    .split('\\')
    .join('/');
}

/** `export * from './x.js'` (not `export * as x`): the re-exports `ModuleInfo.exports` leaves out. */
const STAR_RE_EXPORT = /export\s*\*\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * rolldown's helpers (`__exportAll`, which builds the namespace object a seam's `import()` resolves to when the
 * seam's chunk holds more than the seam) come as a module of their own, one more file for the first call to load.
 * This copies them into each chunk that imports them instead: a few lines of plain functions, no class, no state.
 */
function inlineRuntimeHelpers(): Plugin {
  return {
    name: 'inline-runtime-helpers',
    generateBundle(_options, output) {
      const runtime = Object.values(output).find(
        (item): item is OutputChunk =>
          item.type === 'chunk' && item.moduleIds.length > 0 && item.moduleIds.every((id) => id === RUNTIME_MODULE_ID),
      );
      if (!runtime) return;
      const exported = /^export \{ ([\w$, ]+) \};\s*$/m.exec(runtime.code);
      if (!exported) throw new Error(`${runtime.fileName}: unexpected shape of rolldown's helpers`);
      const helpers = runtime.code.replace(exported[0], '').trim();
      for (const chunk of Object.values(output)) {
        if (chunk.type !== 'chunk' || !chunk.imports.includes(runtime.fileName)) continue;
        let specifier = posix.relative(posix.dirname(chunk.fileName), runtime.fileName);
        if (!specifier.startsWith('.')) specifier = `./${specifier}`;
        const line = new RegExp(
          `^import \\{ ([\\w$, ]+) \\} from "${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}";\\n`,
          'm',
        );
        const imported = line.exec(chunk.code);
        const names = imported?.[1]?.split(', ') ?? [];
        const available = new Set(exported[1]?.split(', '));
        if (!imported || names.some((name) => !available.has(name)))
          throw new Error(`${chunk.fileName}: cannot inline rolldown's helpers (${imported?.[0] ?? 'no import line'})`);
        chunk.code = chunk.code.replace(imported[0], `${helpers}\n`);
        chunk.imports = chunk.imports.filter((file) => file !== runtime.fileName);
      }
      delete output[runtime.fileName];
    },
  };
}

interface Bundle {
  chunks: OutputChunk[];
  /** The names each entry module exports, as rolldown read them. */
  entryExports: Map<string, string[]>;
}

/**
 * Which layout a build writes: the one for bundlers (`dist/`, {@link chunkPlan}), or the Node layout (`dist/node/`,
 * {@link nodeChunkPlan}) around the given main entry.
 */
type Layout = { kind: 'bundlers' } | { kind: 'node'; mainId: string };

async function bundle(
  packageDir: string,
  entries: Record<string, string>,
  policy: Policy,
  layout: Layout = { kind: 'bundlers' },
): Promise<Bundle> {
  sourceDir = join(packageDir, 'src');
  const entryIds = new Set(Object.values(entries).map((source) => join(packageDir, source)));
  let plan: Map<string, string | null> | undefined;
  const planOf = (context: ChunkingContext) =>
    layout.kind === 'node'
      ? nodeChunkPlan(entryIds, layout.mainId, policy.rootId, policy.optional, (id) => context.getModuleInfo(id))
      : chunkPlan(entryIds, policy, (id) => context.getModuleInfo(id));
  const entryExports = new Map<string, string[]>();
  const build = await rolldown({
    cwd: packageDir,
    input: entries,
    platform: 'neutral',
    external: (id) => isExternal(id),
    tsconfig: join(packageDir, 'tsconfig.build.json'),
    transform: { target: 'es2023' },
    // Required by the chunk plan (rolldown moves no module by itself); `checkChunks` then holds every entry to
    // exactly the exports it declares, so no internal name leaks onto a public module.
    preserveEntrySignatures: 'allow-extension',
    plugins: [
      inlineRuntimeHelpers(),
      {
        name: 'entry-exports',
        buildEnd() {
          const exportsOf = (id: string, seen: Set<string>): string[] => {
            if (seen.has(id)) return [];
            seen.add(id);
            const info = this.getModuleInfo(id);
            // `exports` leaves out what `export * from './x.js'` passes on: add the exports of each such module.
            const starred = [...(info?.code ?? '').matchAll(STAR_RE_EXPORT)].flatMap(([, specifier]) => {
              const source = join(dirname(id), specifier as string).replace(/\.js$/, '.ts');
              return exportsOf(source, seen);
            });
            return [...(info?.exports ?? []), ...starred];
          };
          for (const id of entryIds) entryExports.set(id, exportsOf(id, new Set()));
        },
      },
    ],
  });
  try {
    const { output } = await build.write({
      dir: layout.kind === 'node' ? join(packageDir, 'dist', NODE_LAYOUT_DIR) : join(packageDir, 'dist'),
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: '[name].js',
      codeSplitting: {
        includeDependenciesRecursively: false,
        groups: [
          {
            debugName: 'chunk plan',
            name: (id, context) => {
              plan ??= planOf(context);
              if (plan.has(id)) return plan.get(id) ?? null;
              return layout.kind === 'node' ? null : SHARED_CHUNK;
            },
          },
        ],
      },
      // Readable output: the declarations carry the documentation, the code keeps its names.
      minify: false,
      minifyInternalExports: false,
      comments: { legal: true, annotation: true, jsdoc: false },
      sourcemap: false,
    });
    return { chunks: output.filter((item): item is OutputChunk => item.type === 'chunk'), entryExports };
  } finally {
    await build.close();
  }
}

/**
 * The entries left out of the Node layout must each be one module that imports no chunk of the package but one
 * another (`standalone` in `scripts/layout.ts`): the problems, none when they are.
 */
function checkEntriesApart(
  chunks: readonly OutputChunk[],
  entries: Record<string, string>,
  nodeEntries: ReadonlySet<string>,
  packageDir: string,
): string[] {
  const apart = Object.keys(entries).filter((name) => !nodeEntries.has(name));
  // What they may import of the package: one another (the validators import the schemas).
  const files = new Set(
    chunks.map((chunk) => chunk.fileName).filter((file) => !apart.some((name) => file === `${name}.js`)),
  );
  return Object.entries(entries)
    .filter(([name]) => !nodeEntries.has(name))
    .flatMap(([name, source]) => {
      const chunk = chunks.find((candidate) => candidate.facadeModuleId === join(packageDir, source));
      const own = [...(chunk?.imports ?? []), ...(chunk?.dynamicImports ?? [])].filter((file) => files.has(file));
      return own.length === 0
        ? []
        : [`entry ${name} has no "node" condition but imports ${own.join(', ')} of the package`];
    });
}

/**
 * What the output must hold to: stable names (a chunk written under another name than its own, e.g. `shared2.js`,
 * means two chunks claimed one name), entries exporting exactly what their module declares, no cycle of static
 * imports between chunks (the order modules run in stays the source's), built-ins imported as `node:`.
 */
export function checkChunks(
  chunks: readonly OutputChunk[],
  entryExports: ReadonlyMap<string, string[]>,
  sharedEntries: ReadonlySet<string> = new Set(),
): string[] {
  const problems: string[] = [];
  for (const chunk of chunks) {
    if (chunk.fileName !== `${chunk.name}.js`) problems.push(`${chunk.fileName} is not named ${chunk.name}.js`);
    // An entry written as a chunk of shared code exports what the package's other chunks import from it as well.
    if (chunk.isEntry && chunk.facadeModuleId !== null && !sharedEntries.has(chunk.facadeModuleId)) {
      const declared = new Set(entryExports.get(chunk.facadeModuleId) ?? []);
      const extra = chunk.exports.filter((name) => !declared.has(name));
      if (extra.length > 0) problems.push(`${chunk.fileName} exports more than its module: ${extra.join(', ')}`);
    }
    for (const imported of [...chunk.imports, ...chunk.dynamicImports]) {
      if (NODE_BUILTINS.has(imported) && !imported.startsWith('node:'))
        problems.push(`${chunk.fileName} imports the built-in ${imported} without node: (Deno and Workers need it)`);
    }
  }
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      problems.push(`static imports go round: ${[...path.slice(path.indexOf(file)), file].join(' → ')}`);
      return;
    }
    state.set(file, 'visiting');
    for (const imported of byFile.get(file)?.imports ?? []) if (byFile.has(imported)) visit(imported, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of byFile.keys()) visit(file, []);
  return problems;
}

async function main(packageDir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  const entries = entriesOf(manifest);
  for (const [name, source] of Object.entries(entries)) {
    if (!existsSync(join(packageDir, source))) throw new Error(`${manifest.name}: entry ${name} has no ${source}`);
  }
  // `scripts/clean-dist.ts` has emptied `dist` before this runs (the package's `build` line).
  const dist = join(packageDir, 'dist');

  const policy = policyOf(manifest, entries, packageDir);
  const { chunks, entryExports } = await bundle(packageDir, entries, policy);
  const problems = checkChunks(chunks, entryExports, new Set(policy.mainId === undefined ? [] : [policy.mainId]));
  if (problems.length > 0) throw new Error(`${manifest.name}: the bundle breaks a rule:\n  ${problems.join('\n  ')}`);
  const nodeChunks: OutputChunk[] = [];
  if (policy.node.size > 0) {
    const apart = checkEntriesApart(chunks, entries, policy.node, packageDir);
    if (apart.length > 0) throw new Error(`${manifest.name}: ${apart.join('; ')}`);
    const mainId = policy.mainId ?? policy.rootId;
    if (mainId === undefined) throw new Error(`${manifest.name}: the Node layout needs a root entry or a shared chunk`);
    const inNode = Object.fromEntries(Object.entries(entries).filter(([name]) => policy.node.has(name)));
    const node = await bundle(packageDir, inNode, policy, { kind: 'node', mainId });
    // There every entry that takes modules with it is such a chunk; an entry of re-exports alone still exports
    // exactly its names.
    const grouped = new Set(
      node.chunks
        .filter((chunk) => chunk.isEntry && chunk.moduleIds.length > 1)
        .map((chunk) => chunk.facadeModuleId ?? ''),
    );
    const nodeProblems = checkChunks(node.chunks, node.entryExports, grouped);
    if (nodeProblems.length > 0)
      throw new Error(`${manifest.name}: the Node layout breaks a rule:\n  ${nodeProblems.join('\n  ')}`);
    nodeChunks.push(...node.chunks.map((chunk) => ({ ...chunk, fileName: `${NODE_LAYOUT_DIR}/${chunk.fileName}` })));
  }

  const tsc = join(packageDir, 'node_modules', '.bin', 'tsc');
  await run(tsc, ['-p', 'tsconfig.build.json', '--emitDeclarationOnly'], { cwd: packageDir }).catch((error) => {
    throw new Error(`${manifest.name}: tsc failed\n${(error as { stdout?: string }).stdout ?? error}`);
  });

  // Keep what the entries reach (the reach check of `lint:pkg` on the built folder): drop the rest.
  const files = new Map<string, string>([['package/package.json', JSON.stringify(manifest)]]);
  for (const file of await filesUnder(dist)) {
    files.set(posix.join('package/dist', file), await readFile(join(dist, file), 'utf8'));
  }
  const reached = reachableModules(files);
  const dropped: string[] = [];
  for (const file of files.keys()) {
    if (file === 'package/package.json' || reached.has(file)) continue;
    dropped.push(file);

    await rm(join(packageDir, file.slice('package/'.length)));
  }
  await removeEmptyFolders(dist);
  for (const name of Object.keys(entries)) {
    if (!existsSync(join(dist, `${name}.d.ts`))) throw new Error(`${manifest.name}: tsc wrote no dist/${name}.d.ts`);
  }

  const shipped = await filesUnder(dist);
  const modules = shipped.filter((file) => file.endsWith('.js')).sort();
  const sizes = await Promise.all(modules.map(async (file) => (await stat(join(dist, file))).size));
  console.log(
    `${manifest.name}: ${Object.keys(entries).length} entries → ${modules.length} modules ` +
      `(${(sizes.reduce((sum, size) => sum + size, 0) / 1000).toFixed(1)} kB), ` +
      `${shipped.filter((file) => file.endsWith('.d.ts')).length} declarations` +
      (dropped.length > 0
        ? `; left out, reached by no entry: ${dropped.map((file) => file.slice('package/dist/'.length)).join(', ')}`
        : ''),
  );
  const built = [...chunks, ...nodeChunks];
  const lazy = new Set(chunks.flatMap((chunk) => chunk.dynamicImports));
  for (const chunk of nodeChunks) {
    for (const file of chunk.dynamicImports) lazy.add(`${NODE_LAYOUT_DIR}/${file}`);
  }
  for (const [index, file] of modules.entries()) {
    const chunk = built.find((candidate) => candidate.fileName === file);
    const kind = chunk?.isEntry
      ? 'entry'
      : lazy.has(file)
        ? 'lazy'
        : chunk?.moduleIds.every((id) => id.startsWith('\0'))
          ? 'helper'
          : 'shared';
    console.log(`  ${kind.padEnd(6)} ${file} ${((sizes[index] ?? 0) / 1000).toFixed(1)} kB`);
  }
}

if (import.meta.main) await main(process.cwd());
