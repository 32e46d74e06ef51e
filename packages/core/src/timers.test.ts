import { afterEach, expect, it, vi } from 'vitest';
import { raceWithSignal, sleep } from './timers.js';

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
