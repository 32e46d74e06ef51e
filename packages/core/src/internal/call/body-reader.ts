/**
 * The bounded read of a response body: the whole body into memory, counted against a cap after any decompression
 * whatever the headers say (a `fetch` given by the caller, or an interceptor, can announce 10 bytes and stream
 * without end, and no HTTP layer checks it then), stopping at once when its attempt is interrupted.
 */

import { ResponseTooLargeError } from '../../errors.js';

const NO_BYTES = new Uint8Array(0);

const noop = () => undefined;

/** Statuses whose responses cannot carry a body. */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** Announced bodies above this size are read into one buffer of their size; smaller ones keep their chunks. */
const SIZED_BODY_MIN_BYTES = 64 * 1024;

/** What stops a read early: see `AttemptBounds`. */
export interface ReadBounds {
  readonly interrupted: boolean;
  throwIfInterrupted(): void;
  onInterruptCancel(cancel: () => void): void;
}

/**
 * Every byte of `response`'s body, at most `maxBytes` (after decompression): a body announced (uncompressed) past
 * the cap is refused before anything is read, one that grows past it is cancelled there; both throw
 * {@link ResponseTooLargeError}. With `bounds`, an interruption cancels the reader, which ends a pending read at once,
 * and the read throws the interruption's reason. Most bodies come as one chunk, kept as it is.
 */
export async function readBoundedBody(response: Response, maxBytes: number, bounds?: ReadBounds): Promise<Uint8Array> {
  const stream = NULL_BODY_STATUSES.has(response.status) ? null : response.body;
  if (!stream) return NO_BYTES;
  const declared = declaredLength(response, maxBytes);
  if (declared > maxBytes) {
    // Not awaited: a stream whose cancel never settles must not turn the refusal into a timeout.
    stream.cancel().catch(noop);
    throw new ResponseTooLargeError(response.url, maxBytes);
  }
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(noop);
  // A second chunk starts a buffer (see bodyBuffer).
  let firstChunk: Uint8Array | undefined;
  let buffer: BodyBuffer | undefined;
  try {
    bounds?.throwIfInterrupted();
    bounds?.onInterruptCancel(cancel);
    for (;;) {
      const { done, value } = await reader.read();
      bounds?.throwIfInterrupted();
      if (done) break;
      if (buffer) buffer.add(value);
      else if (firstChunk) {
        buffer = bodyBuffer(response, maxBytes, declared, firstChunk);
        buffer.add(value);
      } else if (value.byteLength > maxBytes) throw new ResponseTooLargeError(response.url, maxBytes);
      else firstChunk = value;
    }
  } catch (error) {
    cancel();
    throw error;
  }
  return buffer ? buffer.bytes() : (firstChunk ?? NO_BYTES);
}

/** A body being read past its first chunk: see {@link bodyBuffer}. */
interface BodyBuffer {
  /** Takes the next chunk; throws {@link ResponseTooLargeError} once the body passes the cap. */
  add(chunk: Uint8Array): void;
  /** Every byte taken, in one array. */
  bytes(): Uint8Array;
}

/**
 * The `content-length` of `response` when it tells the size of the body as read, else NaN. The length of a
 * compressed body says nothing of its decoded size, so `content-encoding` is looked up only when the length would
 * count: past the cap, or large enough to size a buffer by.
 */
function declaredLength(response: Response, maxBytes: number): number {
  const { headers } = response;
  const length = headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  return declared > Math.min(maxBytes, SIZED_BODY_MIN_BYTES) && headers.has('content-encoding') ? Number.NaN : declared;
}

/**
 * The rest of `response`'s body after its `first` chunk, counted against `maxBytes`. A large announced body
 * (`declared`, see {@link declaredLength}) goes straight into one buffer of its size: no chunk list, no second copy.
 */
function bodyBuffer(response: Response, maxBytes: number, declared: number, first: Uint8Array): BodyBuffer {
  const sized =
    Number.isInteger(declared) && declared > SIZED_BODY_MIN_BYTES && declared >= first.byteLength
      ? new Uint8Array(declared)
      : undefined;
  const chunks: Uint8Array[] = [];
  let inSized = 0;
  let total = 0;
  const buffer: BodyBuffer = {
    add(chunk) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new ResponseTooLargeError(response.url, maxBytes);
      if (sized && chunks.length === 0 && inSized + chunk.byteLength <= sized.byteLength) {
        sized.set(chunk, inSized);
        inSized += chunk.byteLength;
      } else chunks.push(chunk);
    },
    bytes() {
      // Past one chunk: the sized buffer alone, or everything joined (no single chunk is left to hand on as it is).
      if (sized && chunks.length === 0) return sized.subarray(0, inSized);
      const bytes = new Uint8Array(total);
      if (sized) bytes.set(sized.subarray(0, inSized));
      let offset = inSized;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return bytes;
    },
  };
  buffer.add(first);
  return buffer;
}
