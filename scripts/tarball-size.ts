/**
 * `node scripts/tarball-size.ts <package.tgz> [--max-unpacked <bytes>]`: prints a packed tarball's size, its
 * unpacked size and file count, and its largest files; exits 1 when the unpacked size exceeds the limit, or
 * when the tarball ships a module that no entry of its `exports` or `bin` reaches (generated code nothing imports, a
 * stale build output). The packages' `lint:pkg` scripts run it on what `pnpm pack` produced.
 */
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

/** Name and size of every regular file in an uncompressed tar archive (ustar headers). */
export function tarEntries(tar: Uint8Array): { name: string; size: number; data: Uint8Array }[] {
  const text = (from: number, length: number) =>
    new TextDecoder().decode(tar.subarray(from, from + length)).replace(/\0.*$/s, '');
  const entries: { name: string; size: number; data: Uint8Array }[] = [];
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const name = text(offset, 100);
    if (name === '') break;
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = text(offset + 156, 1);
    const prefix = text(offset + 345, 155);
    const data = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    if (type === '0' || type === '') entries.push({ name: prefix ? `${prefix}/${name}` : name, size, data });
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}

/** Name and text of every regular file in an uncompressed tar archive. */
function tarFiles(tar: Uint8Array): Map<string, string> {
  const decoder = new TextDecoder();
  return new Map(tarEntries(tar).map((entry) => [entry.name, decoder.decode(entry.data)]));
}

/** Every string target of an `exports` map (conditions and subpaths flattened). */
export function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

/** A relative specifier after `from`, `import` or `import(`, in any quotes (a minifier writes `` import(`./x.js`) ``). */
const RELATIVE_IMPORT = /(?:from\s*|import\s*\(\s*|import\s*)['"`](\.{1,2}\/[^'"`]+)['"`]/g;

/** Every target of a `bin` field (a path, or a map of command names to paths). */
export function binTargets(bin: unknown): string[] {
  if (typeof bin === 'string') return [bin];
  if (bin === null || typeof bin !== 'object') return [];
  return Object.values(bin).filter((target): target is string => typeof target === 'string');
}

/**
 * The `.js` and `.d.ts` files of the package that its `exports` and `bin` reach through relative imports (static,
 * dynamic and type-only), each `.js` taking its `.d.ts` along. `files` maps `package/<path>` to content.
 */
export function reachableModules(files: ReadonlyMap<string, string>): Set<string> {
  const manifest = JSON.parse(files.get('package/package.json') ?? '{}') as { exports?: unknown; bin?: unknown };
  const reached = new Set<string>();
  const queue = [...exportTargets(manifest.exports), ...binTargets(manifest.bin)].map((target) =>
    posix.join('package', target),
  );
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (reached.has(file) || !files.has(file)) continue;
    reached.add(file);
    if (file.endsWith('.js')) queue.push(file.replace(/\.js$/, '.d.ts'));
    for (const [, specifier] of (files.get(file) ?? '').matchAll(RELATIVE_IMPORT)) {
      const target = posix.join(posix.dirname(file), specifier as string);
      queue.push(target, target.replace(/\.js$/, '.d.ts'));
    }
  }
  return reached;
}

/** Shipped modules (`.js`, `.d.ts`) that no export reaches. */
export function unreachableModules(files: ReadonlyMap<string, string>): string[] {
  const reached = reachableModules(files);
  return [...files.keys()].filter((file) => /\.(js|d\.ts)$/.test(file) && !reached.has(file)).sort();
}

async function main([file, flag, limit]: string[]): Promise<number> {
  if (!file || (flag !== undefined && (flag !== '--max-unpacked' || !limit))) {
    console.error('usage: node scripts/tarball-size.ts <package.tgz> [--max-unpacked <bytes>]');
    return 2;
  }
  const packed = await readFile(file);
  const entries = tarEntries(gunzipSync(packed));
  const unpacked = entries.reduce((sum, entry) => sum + entry.size, 0);
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log(`tarball: ${kB(packed.length)} packed, ${kB(unpacked)} unpacked, ${entries.length} files`);
  for (const entry of entries.sort((a, b) => b.size - a.size).slice(0, 3))
    console.log(`  ${kB(entry.size)}  ${entry.name}`);
  if (limit !== undefined && unpacked > Number(limit)) {
    console.error(`unpacked size ${kB(unpacked)} exceeds the limit of ${kB(Number(limit))}`);
    return 1;
  }
  const unreachable = unreachableModules(tarFiles(gunzipSync(packed)));
  if (unreachable.length > 0) {
    console.error(
      `${unreachable.length} shipped modules are reached by no entry of exports or bin (leave them out of files):\n  ${unreachable.join('\n  ')}`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
