import { afterEach, expect, it, vi } from 'vitest';
import { onAbort, raceWithSignal } from './abort.js';
import { sleep, startDeadline } from './timers.js';

afterEach(() => {
  vi.useRealTimers();
});

it('sleep resolves after the delay', async () => {
  vi.useFakeTimers();
  let done = false;
  const waiting = sleep(1_000).then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(999);
  expect(done).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  await waiting;
  expect(done).toBe(true);
});

it('sleep rejects with the reason as soon as the signal aborts', async () => {
  vi.useFakeTimers();
  const controller = new AbortController();
  const waiting = sleep(60_000, controller.signal);
  controller.abort(new Error('cancelled'));
  await expect(waiting).rejects.toThrow('cancelled');
  await expect(sleep(1, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
});

it('raceWithSignal settles like the promise unless the signal aborts first', async () => {
  await expect(raceWithSignal(Promise.resolve('value'), new AbortController().signal)).resolves.toBe('value');
  const controller = new AbortController();
  const raced = raceWithSignal(new Promise(() => {}), controller.signal);
  controller.abort(new Error('stop'));
  await expect(raced).rejects.toThrow('stop');
});

it('onAbort puts one listener on a signal however many wait on it, and runs every watcher once', () => {
  const controller = new AbortController();
  const added = vi.spyOn(controller.signal, 'addEventListener');
  const calls: number[] = [];
  const stops = Array.from({ length: 100 }, (_, index) => onAbort(controller.signal, () => calls.push(index)));
  expect(added).toHaveBeenCalledTimes(1);
  stops[0]?.();
  controller.abort();
  expect(calls).toHaveLength(99);
  expect(calls).not.toContain(0);
  controller.abort();
  expect(calls).toHaveLength(99);
});

it('startDeadline expires each deadline at its time through one timer, and not once stopped', async () => {
  vi.useFakeTimers();
  const expired: string[] = [];
  const stopLate = startDeadline(3_000, () => expired.push('late'));
  startDeadline(2_000, () => expired.push('early'));
  const stopped = startDeadline(1_000, () => expired.push('stopped'));
  startDeadline(3_000, () => expired.push('same as late'));
  stopped();
  await vi.advanceTimersByTimeAsync(1_999);
  expect(expired).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(expired).toEqual(['early']);
  stopLate();
  await vi.advanceTimersByTimeAsync(1_000);
  expect(expired).toEqual(['early', 'same as late']);
});

it('startDeadline: a hundred deadlines of one length share one timer', async () => {
  vi.useFakeTimers();
  const timers = vi.spyOn(globalThis, 'setTimeout');
  let expired = 0;
  for (let index = 0; index < 100; index++) {
    startDeadline(1_000, () => {
      expired += 1;
    });
  }
  expect(timers).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(expired).toBe(100);
});

it('startDeadline sets its timer again when fake timers come or go', async () => {
  vi.useFakeTimers();
  const stop = startDeadline(10, () => {});
  vi.useRealTimers();
  // Later than the fake timer, which will never fire now: a timer of its own is needed.
  const expired = new Promise<string>((resolve) => startDeadline(50, () => resolve('expired')));
  await expect(expired).resolves.toBe('expired');
  stop();
});

it('startDeadline never fires for an infinite timeout, and a timeout past setTimeout’s range does not fire at once', async () => {
  vi.useFakeTimers();
  const fired: string[] = [];
  const stopInfinite = startDeadline(Number.POSITIVE_INFINITY, () => fired.push('infinite'));
  const stopFar = startDeadline(2 ** 31 + 5_000, () => fired.push('far'));
  const stopNear = startDeadline(100, () => fired.push('near'));
  await vi.advanceTimersByTimeAsync(1_000);
  expect(fired).toEqual(['near']);
  await vi.advanceTimersByTimeAsync(2 ** 31 + 5_000);
  expect(fired).toEqual(['near', 'far']);
  stopInfinite();
  stopFar();
  stopNear();
});
