/**
 * The one bounded read of a body, counted against a cap after any decompression whatever the headers say (a `fetch`
 * given by the caller, or an interceptor, can announce 10 bytes and stream without end, and no HTTP layer checks it
 * then): {@link readBoundedBody} reads a response whole (the transport, within its attempt's bounds);
 * {@link boundedResponse} passes a response on as a stream that errors past the cap (the MCP tool clients' answers,
 * SSE streams included); {@link boundedBytes} gathers chunks from any source (the store's webhook listener).
 */

import { ResponseTooLargeError } from './answer-errors.js';
import { redactUrl } from './redact-text.js';

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
    throw tooLargeError(response.url, maxBytes);
  }
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(noop);
  // A second chunk starts a buffer (see boundedBytes).
  let firstChunk: Uint8Array | undefined;
  let buffer: BoundedBytes | undefined;
  try {
    bounds?.throwIfInterrupted();
    bounds?.onInterruptCancel(cancel);
    for (;;) {
      const { done, value } = await reader.read();
      bounds?.throwIfInterrupted();
      if (done) break;
      if (buffer) buffer.add(value);
      else if (firstChunk) {
        buffer = boundedBytes(maxBytes, { declared, source: response.url });
        buffer.add(firstChunk);
        buffer.add(value);
      } else if (value.byteLength > maxBytes) throw tooLargeError(response.url, maxBytes);
      else firstChunk = value;
    }
  } catch (error) {
    cancel();
    throw error;
  }
  return buffer ? buffer.bytes() : (firstChunk ?? NO_BYTES);
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

/** Chunks of a body gathered under a cap: see {@link boundedBytes}. */
export interface BoundedBytes {
  /** Takes the next chunk; throws {@link ResponseTooLargeError} once the body passes the cap (and keeps nothing more). */
  add(chunk: Uint8Array): void;
  /** Bytes taken so far. */
  readonly size: number;
  /** Every byte taken, in one array. */
  bytes(): Uint8Array;
}

/**
 * Gathers a body's chunks, counted against `maxBytes`. A large announced body (`declared`, its `content-length` when
 * that tells the decoded size) goes straight into one buffer of its size: no chunk list, no second copy. `source`
 * (a URL, masked in the error) says where the body came from.
 */
export function boundedBytes(maxBytes: number, options: { declared?: number; source?: string } = {}): BoundedBytes {
  const declared = options.declared ?? Number.NaN;
  const sized =
    Number.isInteger(declared) && declared > SIZED_BODY_MIN_BYTES && declared <= maxBytes
      ? new Uint8Array(declared)
      : undefined;
  const chunks: Uint8Array[] = [];
  let inSized = 0;
  let total = 0;
  return {
    add(chunk) {
      if (total + chunk.byteLength > maxBytes) throw tooLargeError(options.source ?? '', maxBytes);
      total += chunk.byteLength;
      if (sized && chunks.length === 0 && inSized + chunk.byteLength <= sized.byteLength) {
        sized.set(chunk, inSized);
        inSized += chunk.byteLength;
      } else chunks.push(chunk);
    },
    get size() {
      return total;
    },
    bytes() {
      // A single chunk is handed on as it is; past one: the sized buffer alone, or everything joined.
      if (!sized && chunks.length === 1) return chunks[0] as Uint8Array;
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
}

/**
 * `response` with its body counted as it is read: a body announced (uncompressed) past `maxBytes` is refused before
 * anything is read (thrown), one that grows past it errors with {@link ResponseTooLargeError} (given to `onTooLarge`
 * first) and cancels the source; when `signal` aborts it is cancelled too, whatever the `fetch` that produced it does
 * with signals. For answers read as a stream (an SSE stream stays open); {@link readBoundedBody} reads one whole.
 */
export function boundedResponse(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  onTooLarge: (error: ResponseTooLargeError) => void,
): Response {
  if (!response.body) return response;
  const tooLarge = () => {
    const error = tooLargeError(response.url, maxBytes);
    onTooLarge(error);
    return error;
  };
  const declared = Number(response.headers.get('content-length'));
  if (!response.headers.has('content-encoding') && Number.isFinite(declared) && declared > maxBytes) {
    response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const source = response.body.getReader();
  let total = 0;
  let stopped: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stopped = () => {
        controller.error(signal.reason);
        source.cancel(signal.reason).catch(() => undefined);
      };
      if (signal.aborted) stopped();
      else signal.addEventListener('abort', stopped, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await source.read();
        if (done) {
          signal.removeEventListener('abort', stopped as () => void);
          controller.close();
          return;
        }
        total += value.byteLength;
        if (total > maxBytes) {
          signal.removeEventListener('abort', stopped as () => void);
          controller.error(tooLarge());
          await source.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        signal.removeEventListener('abort', stopped as () => void);
        controller.error(error);
      }
    },
    cancel(reason) {
      signal.removeEventListener('abort', stopped as () => void);
      return source.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The error of a body past `maxBytes`, naming its source with the URL's credentials masked. */
function tooLargeError(url: string, maxBytes: number): ResponseTooLargeError {
  const where = url ? ` from ${redactUrl(url)}` : '';
  return new ResponseTooLargeError(
    `Response body${where} is larger than the ${maxBytes}-byte cap (maxResponseBytes); reading stopped`,
    maxBytes,
  );
}
