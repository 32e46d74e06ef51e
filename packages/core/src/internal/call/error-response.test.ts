/*
 * The read of a failed answer's body: bounded in bytes and by the caller's signal, whoever hands the response in
 * (the REST transport passes bytes it already read; the MCP tool clients pass the response as it came).
 */
import { describe, expect, it } from 'vitest';
import { InternalServerError, ResponseTooLargeError, UnprocessableEntityError } from './answer-errors.js';
import { apiErrorFromResponse, createRequestContext } from './error-response.js';
import { createTransport } from './transport.js';

const MiB = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

const context = () => createRequestContext(new Request('https://api.example.test/v1/products/p1.json'));

/**
 * An error body of `totalBytes`, counting what is pulled from it (only when read: no chunk is queued ahead) and
 * whether it was cancelled.
 */
function countedBody(totalBytes: number) {
  const state = { pulled: 0, cancelled: false };
  const chunk = new Uint8Array(CHUNK_BYTES).fill(0x61);
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= totalBytes) return controller.close();
        state.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { state, response: new Response(body, { status: 500, headers: { 'content-type': 'text/plain' } }) };
}

describe('apiErrorFromResponse: reading the body', () => {
  it('stops at maxBytes with ResponseTooLargeError, pulling at most the cap and one chunk', async () => {
    const { state, response } = countedBody(32 * MiB);
    const error = await apiErrorFromResponse(response, context(), { maxBytes: MiB }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ maxBytes: MiB });
    expect(state.pulled).toBeLessThanOrEqual(MiB + CHUNK_BYTES);
    expect(state.cancelled).toBe(true);
  });

  it('stops at 8 MiB when no cap is given', async () => {
    const { state, response } = countedBody(32 * MiB);
    const error = await apiErrorFromResponse(response, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ maxBytes: 8 * MiB });
    expect(state.pulled).toBeLessThanOrEqual(8 * MiB + CHUNK_BYTES);
  });

  it('refuses a body announced past the cap without reading it', async () => {
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const response = new Response(body, { status: 500, headers: { 'content-length': String(2 * MiB) } });
    // A read would stall for good: the error type, not a duration, tells it was refused first.
    await expect(apiErrorFromResponse(response, context(), { maxBytes: MiB })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
  });

  it('ends a body that never finishes when the signal aborts, rejecting with its reason', async () => {
    let firstPull: () => void = () => undefined;
    const pulled = new Promise<void>((resolve) => {
      firstPull = resolve;
    });
    let cancelled = false;
    const stalls = new ReadableStream<Uint8Array>({
      pull: () => {
        firstPull();
        return new Promise(() => undefined);
      },
      cancel: () => {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const read = apiErrorFromResponse(new Response(stalls, { status: 503 }), context(), {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await pulled;
    const reason = new Error('call over');
    controller.abort(reason);
    expect(await read).toBe(reason);
    expect(cancelled).toBe(true);
  });

  it('reads nothing once the signal has aborted', async () => {
    const { state, response } = countedBody(32 * MiB);
    const controller = new AbortController();
    controller.abort(new Error('already over'));
    await expect(apiErrorFromResponse(response, context(), { signal: controller.signal })).rejects.toThrow(
      'already over',
    );
    expect(state.pulled).toBe(0);
  });

  it('builds the error without a body when the body breaks off, as before', async () => {
    const breaks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"message":'));
        controller.error(new TypeError('socket closed'));
      },
    });
    const error = await apiErrorFromResponse(new Response(breaks, { status: 500 }), context());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBeUndefined();
  });

  it('keeps a body within the cap whole: JSON parsed, detail cut to 300 characters', async () => {
    const message = 'm'.repeat(1000);
    const { length } = JSON.stringify({ message });
    const error = await apiErrorFromResponse(Response.json({ message }, { status: 500 }), context(), {
      maxBytes: length,
    });
    expect(error.body).toEqual({ message });
    expect(error.message).toMatch(/: m{300}…$/);
  });
});

describe('the REST transport', () => {
  it('keeps a failed answer past 8 MiB whole when its maxResponseBytes allows it', async () => {
    // 9 MiB of JSON whose bulk is whitespace between two members: cut anywhere before its end it does not parse, and
    // it costs the parser and the redaction little (9,000 strings of 1 KiB made the test slow on a loaded machine).
    const json = `{"message":"invalid",${' '.repeat(9 * MiB)}"errors":{"name":["is taken"]}}`;
    const transport = createTransport({
      maxResponseBytes: 16 * MiB,
      maxRetries: 0,
      fetch: async () => new Response(json, { status: 422, headers: { 'content-type': 'application/json' } }),
    });
    const error = await transport
      .send({ method: 'GET', url: 'https://api.example.test/v1/products/p1.json' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).body).toEqual({ message: 'invalid', errors: { name: ['is taken'] } });
  });
});
