/**
 * Watching a caller's `AbortSignal` with one listener however many calls wait on it: used by the transport, the rate
 * limiter, a client's first call and the trust client's shared decisions. Nothing here runs at import.
 */

let abortWatchers: WeakMap<AbortSignal, Set<() => void>> | undefined;

/**
 * Runs `callback` once when `signal` (not aborted yet) aborts; returns the function that stops watching. However many calls wait
 * on one signal, the signal carries a single listener of ours (no `MaxListenersExceededWarning` when a hundred
 * calls share one), and a settled call leaves nothing behind on it.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  abortWatchers ??= new WeakMap();
  let watchers = abortWatchers.get(signal);
  if (!watchers) {
    const created = new Set<() => void>();
    watchers = created;
    abortWatchers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const watcher of created) watcher();
        created.clear();
      },
      { once: true },
    );
  }
  const own = watchers;
  own.add(callback);
  return () => own.delete(callback);
}

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
