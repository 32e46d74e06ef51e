/**
 * The bounds of one attempt of a call: the time left before the call's deadline (its `timeout` covers every
 * attempt and the waits between them) and the caller's signal. Either one interrupts the attempt: every wait the attempt is in (a hook, the
 * response, the body) ends at once, the request's own signal aborts (so a request still pending lets its socket go
 * and keeps no process alive), and a response that arrives after that has its body cancelled.
 */

import { onAbort } from './abort.js';
import { startDeadline } from './timers.js';

const noop = () => undefined;

/** One attempt's deadline and abort watch; {@link end} it once the attempt's body is read (or it failed). */
export class AttemptBounds {
  /** Aborts with the interruption: the request's signal, and the one hooks see (`AttemptContext.signal`). */
  readonly controller = new AbortController();
  /** Whether the deadline passed (rather than the caller aborting). */
  timedOut = false;
  #interrupted = false;
  #reason: unknown;
  #rejectWait: ((reason: unknown) => void) | undefined;
  #cancelRead: (() => void) | undefined;
  #sent: Promise<Response> | undefined;
  readonly #stopWatchingCaller: (() => void) | undefined;
  readonly #stopDeadline: () => void;

  // A signal on the request costs undici a follow per `Request` (listener, weak reference, finalisation
  // registration): the largest share of a call's own work. So the caller's signal is watched here with one shared
  // listener, the timeout comes from the realm's shared clock, and both interrupt the waits of the attempt.
  constructor(timeoutMs: number, callerSignal: AbortSignal | undefined) {
    this.#stopWatchingCaller = callerSignal
      ? onAbort(callerSignal, () => this.interrupt(callerSignal.reason))
      : undefined;
    this.#stopDeadline = startDeadline(timeoutMs, () => {
      this.timedOut = true;
      this.interrupt(new Error('timeout'));
    });
  }

  /** Whether the deadline passed or the caller aborted. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Throws the interruption's reason once there is one. */
  throwIfInterrupted(): void {
    if (this.#interrupted) throw this.#reason;
  }

  /** Ends the attempt: aborts the request, rejects the wait in progress, cancels the body being read. */
  interrupt(reason: unknown): void {
    if (this.#interrupted) return;
    this.#interrupted = true;
    this.#reason = reason;
    this.controller.abort(reason);
    this.#rejectWait?.(reason);
    this.#cancelRead?.();
  }

  /** Settles like `promise`, or rejects as soon as the attempt is interrupted (a fetch or hook may ignore signals). */
  guard<T>(promise: Promise<T>): Promise<T> {
    if (this.#interrupted) {
      // The promise is dropped: whatever it comes to is not reported as unhandled.
      promise.catch(noop);
      return Promise.reject(this.#reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.#rejectWait = reject;
      promise.then(resolve, reject);
    });
  }

  /** The response of a request sent in this attempt, within its bounds (see {@link dropLateResponse}). */
  response(sent: Promise<Response>): Promise<Response> {
    this.#sent = sent;
    return this.guard(sent);
  }

  /**
   * How to stop reading the body: an interruption calls it, which ends a pending read at once (a read is never
   * guarded; a stream's own cancel may never settle, and the read does not wait for it).
   */
  onInterruptCancel(cancel: () => void): void {
    this.#cancelRead = cancel;
  }

  /** Interrupted before the response came: whenever it comes, its body is cancelled, freeing the connection. */
  dropLateResponse(): void {
    if (this.#interrupted) this.#sent?.then((late) => late.body?.cancel().catch(noop), noop);
  }

  /** Stops the deadline and the watch of the caller's signal. */
  end(): void {
    this.#stopDeadline();
    this.#stopWatchingCaller?.();
  }
}
