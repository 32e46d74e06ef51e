/** Timing and memory helpers shared by the bench sections. */
import { readdir, readFile } from 'node:fs/promises';

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Milliseconds taken by `task`. */
export async function timeMs(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

/**
 * Milliseconds of CPU (user + system) this process spent on `task`. On a shared machine this counts the work
 * done, not the time spent waiting for a core, so it suits purely in-process work such as an in-memory `fetch`.
 */
export async function cpuMs(task: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await task();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1_000;
}

/** Runs `call` `count` times, at most `concurrency` at once (1 = one after the other). */
export async function runPool(
  count: number,
  concurrency: number,
  call: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await call(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** `a / b` rounded to two decimals. */
export function ratio(a: number, b: number): number {
  return Math.round((a / b) * 100) / 100;
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Linux page size, the unit of the rss field in `/proc/<pid>/stat`. */
const PAGE_SIZE = 4096;

/** Resident memory of `rootPid` and all its descendants, in bytes (Linux `/proc`). */
export async function processTreeRss(rootPid: number): Promise<number> {
  const parents = new Map<number, number>();
  const rssPages = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command name: state, ppid, …; rss is field 24 (index 21 after the name).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      rssPages.set(Number(entry), Number(fields[21]));
    } catch {
      // The process ended while we looked.
    }
  }
  const inTree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let pages = 0;
  for (const pid of inTree) pages += rssPages.get(pid) ?? 0;
  return pages * PAGE_SIZE;
}

/** Samples {@link processTreeRss} every `intervalMs` until `stop()`; resolves with the peak in bytes. */
export function sampleTreePeak(rootPid: number, intervalMs = 100): { stop: () => Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await processTreeRss(rootPid));
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return peak;
    },
  };
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): number {
  return round(bytes / 1024 / 1024, 1);
}
