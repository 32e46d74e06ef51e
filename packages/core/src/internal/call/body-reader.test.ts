import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from './answer-errors.js';
import { boundedBytes, boundedResponse, readBoundedBody } from './body-reader.js';

const bytes = (...values: number[]) => new Uint8Array(values);

/** A body that streams `chunks` and counts how many were pulled. */
function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[pulled++];
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return { response: new Response(body, { headers }), pulled: () => pulled };
}

describe('boundedBytes', () => {
  it('joins chunks in order and refuses the chunk that passes the cap, keeping nothing of it', () => {
    const body = boundedBytes(5, { source: 'https://api.example.com/x?token=secret-token-value' });
    body.add(bytes(1, 2));
    body.add(bytes(3, 4));
    expect(() => body.add(bytes(5, 6))).toThrow(ResponseTooLargeError);
    expect(body.size).toBe(4);
    expect([...body.bytes()]).toEqual([1, 2, 3, 4]);
  });

  it('never quotes a credential of its source in the error', () => {
    const body = boundedBytes(1, { source: 'https://api.example.com/x?token=secret-token-value' });
    const error = (() => {
      try {
        body.add(bytes(1, 2));
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).not.toContain('secret-token-value');
  });

  it('fills one buffer of the announced size for a large body, and still joins chunks past it', () => {
    const size = 70 * 1024;
    const body = boundedBytes(1024 * 1024, { declared: size });
    body.add(new Uint8Array(size - 1).fill(7));
    body.add(bytes(8, 9));
    const all = body.bytes();
    expect(all.byteLength).toBe(size + 1);
    expect([...all.subarray(size - 2)]).toEqual([7, 8, 9]);
  });
});

describe('readBoundedBody', () => {
  it('refuses a body announced past the cap before reading any of it', async () => {
    const { response, pulled } = streamed([bytes(1), bytes(2)], { 'content-length': '100' });
    await expect(readBoundedBody(response, 10)).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it('reads a body that announces less than it sends only up to the cap', async () => {
    const { response } = streamed([new Uint8Array(6), new Uint8Array(6)], { 'content-length': '3' });
    await expect(readBoundedBody(response, 10)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('reads every chunk of a body within the cap', async () => {
    const { response } = streamed([bytes(1, 2), bytes(3)]);
    expect([...(await readBoundedBody(response, 10))]).toEqual([1, 2, 3]);
  });
});

describe('boundedResponse', () => {
  it('passes a body on as a stream that errors once it passes the cap, telling onTooLarge', async () => {
    const { response } = streamed([new Uint8Array(6), new Uint8Array(6)]);
    const seen: ResponseTooLargeError[] = [];
    const bounded = boundedResponse(response, 10, new AbortController().signal, (error) => seen.push(error));
    await expect(bounded.arrayBuffer()).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(seen).toHaveLength(1);
  });

  it('ends the stream when the signal aborts', async () => {
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const controller = new AbortController();
    const bounded = boundedResponse(new Response(body), 10, controller.signal, () => undefined);
    const read = bounded.arrayBuffer();
    controller.abort(new Error('stop'));
    await expect(read).rejects.toThrow('stop');
  });
});
