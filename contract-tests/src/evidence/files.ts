/**
 * Files other jobs may have written (a history restored from a cache, a reports folder from an artifact) are data:
 * a folder is written and cleaned only when it is a real folder, never through a symbolic link, and a file is read
 * only when it is a regular file (no link, FIFO or device), from the handle it was checked on, at most its cap.
 */
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Refuses a folder (or its parent) that is a symbolic link or not a folder: a run deletes and writes files in it,
 * never through a link into another folder. A folder that does not exist yet is fine (it is created as a real one).
 */
export async function refuseLinkedFolder(dir: string): Promise<void> {
  for (const path of [dir, dirname(dir)]) {
    const info = await lstat(path).catch(() => undefined);
    if (info && !info.isDirectory()) {
      throw new Error(
        `${path} is ${info.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}: reports are written and deleted only in a real folder`,
      );
    }
  }
}

/** A file read as `readCapped` reads it: its text, or why it was refused. */
export type CappedRead = { text: string } | { refused: string };

/**
 * The text of `path` when it is a regular file of at most `cap` bytes. Checked with `lstat` (a link is refused, not
 * followed), opened with O_NOFOLLOW and O_NONBLOCK (a FIFO swapped in after the check neither blocks nor is read),
 * checked again with `fstat` on the open handle, and read from that handle: at most `cap + 1` bytes, so a file that
 * grows or lies about its size is refused without being read whole.
 */
export async function readCapped(path: string, cap: number): Promise<CappedRead> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return { refused: 'gone' };
  if (!info.isFile()) return { refused: info.isSymbolicLink() ? 'a symbolic link' : 'not a regular file' };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return { refused: `not opened (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    if (!(await handle.stat()).isFile()) return { refused: 'not a regular file' };
    const buffer = Buffer.alloc(Math.min(cap + 1, 1 << 20));
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= cap) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, cap + 1 - total), null);
      if (bytesRead === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
      total += bytesRead;
    }
    if (total > cap) return { refused: `larger than ${cap} bytes` };
    return { text: Buffer.concat(chunks).toString('utf8') };
  } finally {
    await handle.close();
  }
}
