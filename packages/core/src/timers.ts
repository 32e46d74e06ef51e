/**
 * Waiting, aborting and timing out, shared by the transport, the retry loop and the rate limiter. Nothing here
 * runs at import: the shared clock and the abort registry come into being with the first call that needs them.
 */

/** A wait of `ms` milliseconds that rejects with the signal's reason when the signal aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

type AbortWatchers = Set<() => void>;

let abortWatchers: WeakMap<AbortSignal, AbortWatchers> | undefined;

/**
 * Runs `callback` once when `signal` aborts; returns the function that stops watching. However many calls wait
 * on one signal, the signal carries a single listener of ours (no `MaxListenersExceededWarning` when a hundred
 * calls share one), and a settled call leaves nothing behind on it.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  abortWatchers ??= new WeakMap();
  let watchers = abortWatchers.get(signal);
  if (!watchers) {
    const created: AbortWatchers = new Set();
    watchers = created;
    abortWatchers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        abortWatchers?.delete(signal);
        for (const watcher of created) watcher();
        created.clear();
      },
      { once: true },
    );
  }
  const own = watchers;
  own.add(callback);
  return () => {
    own.delete(callback);
  };
}

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

/** Settles like `promise`, or rejects with the signal's reason as soon as `signal` aborts. */
export function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = onAbort(signal, () => reject(signal.reason));
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

interface Deadline {
  at: number;
  expire: () => void;
}

type Timer = ReturnType<typeof setTimeout> & { ref?: () => unknown; unref?: () => unknown };

/** The one clock of every pending deadline in this realm. */
interface Clock {
  pending: Set<Deadline>;
  timer: Timer | undefined;
  /** When the timer fires (ms since epoch); `Infinity` when none is set. */
  armedAt: number;
  /** The `setTimeout` the timer was set with: another one (fake timers installed or removed) means set it again. */
  armedWith: typeof setTimeout | undefined;
}

let clock: Clock | undefined;

function arm(state: Clock, at: number): void {
  // A timer of another `setTimeout` (fake timers came or went) cannot be cleared here: `fire` ignores it instead.
  if (state.timer !== undefined && state.armedWith === setTimeout) clearTimeout(state.timer);
  state.armedAt = at;
  state.armedWith = setTimeout;
  const timer: Timer = setTimeout(
    () => {
      if (state.timer === timer) fire(state);
    },
    Math.max(0, at - Date.now()),
  );
  state.timer = timer;
}

function fire(state: Clock): void {
  // The timer was set for `armedAt`: whatever the wall clock says (fake timers may move one and not the other),
  // everything due by then expires now.
  const now = Math.max(Date.now(), state.armedAt);
  state.timer = undefined;
  state.armedAt = Number.POSITIVE_INFINITY;
  for (const deadline of state.pending) {
    if (deadline.at <= now) {
      state.pending.delete(deadline);
      deadline.expire();
    }
  }
  let next = Number.POSITIVE_INFINITY;
  for (const deadline of state.pending) if (deadline.at < next) next = deadline.at;
  if (next !== Number.POSITIVE_INFINITY && next < state.armedAt) arm(state, next);
}

/**
 * Calls `expire` once `ms` milliseconds have passed, unless the returned function is called first. Every
 * deadline of the realm shares one timer set for the earliest of them, so a call costs no timer of its own; while
 * none is pending the timer does not keep a Node process alive (it is released where `unref` is missing).
 */
export function startDeadline(ms: number, expire: () => void): () => void {
  clock ??= { pending: new Set(), timer: undefined, armedAt: Number.POSITIVE_INFINITY, armedWith: undefined };
  const state = clock;
  const deadline: Deadline = { at: Date.now() + ms, expire };
  const wasIdle = state.pending.size === 0;
  state.pending.add(deadline);
  if (deadline.at < state.armedAt || state.armedWith !== setTimeout) arm(state, deadline.at);
  else if (wasIdle) state.timer?.ref?.();
  return () => {
    if (!state.pending.delete(deadline) || state.pending.size > 0) return;
    const { timer } = state;
    if (timer?.unref) timer.unref();
    else if (timer !== undefined) {
      if (state.armedWith === setTimeout) clearTimeout(timer);
      state.timer = undefined;
      state.armedAt = Number.POSITIVE_INFINITY;
    }
  };
}
