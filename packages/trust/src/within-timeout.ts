/**
 * A bound on a wait for a promise this caller did not start: a decide call that joins another caller's request in
 * flight waits under that caller's timeout unless its own ends the wait first.
 */

/** The longest delay `setTimeout` takes (2³¹−1 ms); a longer one fires at once, so it means no timer at all. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Settles like `pending`, or rejects with the error `timedOut` gives once `timeoutMs` have passed, whichever comes
 * first. `pending` itself runs on. As in the transport, a timeout past the longest timer (`Infinity` included) sets
 * none, and so does one that is no number ≥ 0.
 */
export function withinTimeout<T>(pending: Promise<T>, timeoutMs: number, timedOut: () => Promise<Error>): Promise<T> {
  if (!(timeoutMs >= 0 && timeoutMs <= MAX_TIMER_MS)) return pending;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      timedOut().then(reject);
    }, timeoutMs);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
