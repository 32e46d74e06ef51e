/**
 * Waiting, aborting and timing out, shared by the transport, the retry loop and the rate limiter. Nothing here
 * runs at import: the shared clock and the abort registry come into being with the first call that needs them.
 */

import { onAbort } from './abort.js';
import { MAX_TIMER_MS } from './env.js';

/** A wait of `ms` milliseconds that rejects with the signal's reason when the signal aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default {@link Sleep}, built on `setTimeout` (so fake timers control it). */
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
    }, ms);
  });

interface Deadline {
  at: number;
  expire: () => void;
}

type Timer = ReturnType<typeof setTimeout> & { unref?: () => unknown };

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
  // The clock never keeps a Node process alive: a call waiting on a connection is kept alive by its socket, and
  // neither waking the timer up for each call nor putting it back to sleep after it costs the call anything.
  own.unref?.();
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
 * deadline of the realm shares one timer set for the earliest of them, so a call costs no timer of its own. The
 * timer never keeps a Node (or Bun) process alive (\`unref\`): what a call waits on (a socket, a retry's sleep) does;
 * where timers have no \`unref\` (browsers, Deno, Workers) it is cleared once no deadline is pending.
 */
export function startDeadline(ms: number, expire: () => void): () => void {
  const deadline: Deadline = { at: Date.now() + ms, expire };
  pending ??= new Set();
  pending.add(deadline);
  // Another `setTimeout` (fake timers installed or removed) means setting the clock again, for the earliest of all.
  if (armedWith !== setTimeout) arm(Math.min(...[...pending].map((each) => each.at)));
  else if (deadline.at < armedAt) arm(deadline.at);
  return () => {
    if (!pending?.delete(deadline) || pending.size > 0) return;
    if (timer !== undefined && !timer.unref) {
      if (armedWith === setTimeout) clearTimeout(timer);
      timer = undefined;
      armedAt = Number.POSITIVE_INFINITY;
    }
  };
}
