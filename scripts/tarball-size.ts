/**
 * `node scripts/tarball-size.ts <package.tgz> [--max-unpacked <bytes>]`: prints a packed tarball's size, its
 * unpacked size and file count, and its largest files; exits 1 when the unpacked size exceeds the limit. The
 * packages' `lint:pkg` scripts run it on what `pnpm pack` produced.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

/** Name and size of every regular file in an uncompressed tar archive (ustar headers). */
export function tarEntries(tar: Uint8Array): { name: string; size: number }[] {
  const text = (from: number, length: number) =>
    new TextDecoder().decode(tar.subarray(from, from + length)).replace(/\0.*$/s, '');
  const entries: { name: string; size: number }[] = [];
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const name = text(offset, 100);
    if (name === '') break;
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = text(offset + 156, 1);
    const prefix = text(offset + 345, 155);
    if (type === '0' || type === '') entries.push({ name: prefix ? `${prefix}/${name}` : name, size });
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
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
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
