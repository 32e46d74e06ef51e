/**
 * Waiting, aborting and timing out, shared by the transport, the retry loop and the rate limiter. Nothing here
 * runs at import: the shared clock and the abort registry come into being with the first call that needs them.
 */

import { onAbort } from './abort.js';
import { MAX_TIMER_MS } from './env.js';

/** A wait of `ms` milliseconds that rejects with the signal's reason when the signal aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * A delay `setTimeout` can take: at most 2³¹−1 ms (a longer one, `Infinity` included, fires at once in every
 * runtime), never negative, 0 for `NaN`.
 */
export function timerDelay(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0;
}

/**
 * The default {@link Sleep}, built on `setTimeout` (so fake timers control it). A wait past 2³¹−1 ms ends after
 * 2³¹−1 ms (about 24.8 days; `Infinity` included), never in a loop of 1 ms timers: whoever waits that long checks
 * again and waits anew.
 */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const stop = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        })
      : undefined;
    const timer = setTimeout(() => {
      stop?.();
      resolve();
    }, timerDelay(ms));
  });

interface Deadline {
  at: number;
  expire: () => void;
}

type Timer = ReturnType<typeof setTimeout> & { ref?: () => unknown; unref?: () => unknown };

// The one clock of every pending deadline in this realm: a timer set for the earliest of them.
let pending: Set<Deadline> | undefined;
let timer: Timer | undefined;
/** When `timer` fires (ms since epoch); infinite when none is set. */
let armedAt = Number.POSITIVE_INFINITY;
/** The `setTimeout` that set `timer`: another one (fake timers installed or removed) means setting it again. */
let armedWith: typeof setTimeout | undefined;

function arm(at: number): void {
  // A timer of another `setTimeout` cannot be cleared with this one: it is ignored when it fires instead.
  if (timer !== undefined && armedWith === setTimeout) clearTimeout(timer);
  armedWith = setTimeout;
  timer = undefined;
  armedAt = Number.POSITIVE_INFINITY;
  // A deadline at infinity (an infinite timeout) never fires; a far one is reached in steps of the longest delay.
  if (!(at < Number.POSITIVE_INFINITY)) return;
  const delay = Math.min(at - Date.now(), MAX_TIMER_MS);
  armedAt = Date.now() + delay;
  const own: Timer = setTimeout(() => {
    if (timer === own) fire();
  }, delay);
  timer = own;
}

function fire(): void {
  // The timer was set for `armedAt`: whatever the wall clock says (fake timers may move one and not the other),
  // everything due by then expires now.
  const now = Math.max(Date.now(), armedAt);
  timer = undefined;
  armedAt = Number.POSITIVE_INFINITY;
  let next = Number.POSITIVE_INFINITY;
  for (const deadline of pending ?? []) {
    if (deadline.at <= now) {
      pending?.delete(deadline);
      deadline.expire();
    } else if (deadline.at < next) next = deadline.at;
  }
  if (next < armedAt) arm(next);
}

/**
 * Calls `expire` once `ms` milliseconds have passed, unless the returned function is called first. Every
 * deadline of the realm shares one timer set for the earliest of them, so a call costs no timer of its own; while
 * none is pending the timer does not keep a Node process alive (it is cleared where `unref` is missing). While one
 * is, it does: a call waiting on nothing that holds the process (a caller's `fetch` whose body stalls in memory)
 * must still end at its timeout, not with the process (the ecosystem matrix checks it in every runtime).
 */
export function startDeadline(ms: number, expire: () => void): () => void {
  const deadline: Deadline = { at: Date.now() + ms, expire };
  pending ??= new Set();
  const wasIdle = pending.size === 0;
  pending.add(deadline);
  // Another `setTimeout` (fake timers installed or removed) means setting the clock again, for the earliest of all.
  if (armedWith !== setTimeout) arm(Math.min(...[...pending].map((each) => each.at)));
  else if (deadline.at < armedAt) arm(deadline.at);
  else if (wasIdle) timer?.ref?.();
  return () => {
    if (!pending?.delete(deadline) || pending.size > 0) return;
    if (timer?.unref) timer.unref();
    else if (timer !== undefined) {
      if (armedWith === setTimeout) clearTimeout(timer);
      timer = undefined;
      armedAt = Number.POSITIVE_INFINITY;
    }
  };
}
