import { describe, expect, expectTypeOf, it } from 'vitest';
import { ApiPromise, mapApiPromise } from './api-promise.js';
import type { WithResponse } from './operations.js';

const answer = <T>(data: T, status = 200): Promise<WithResponse<T>> =>
  Promise.resolve({ data, response: new Response(null, { status, headers: { 'x-request-id': 'r9' } }) });

describe('ApiPromise', () => {
  it('awaits to the data, and hands out the response with .withResponse() and .asResponse()', async () => {
    const call = new ApiPromise(answer({ id: 7 }, 201));
    expect(await call).toEqual({ id: 7 });
    const { data, response } = await call.withResponse();
    expect(data).toEqual({ id: 7 });
    expect(response.status).toBe(201);
    expect((await call.asResponse()).headers.get('x-request-id')).toBe('r9');
    expectTypeOf(call.withResponse()).resolves.toEqualTypeOf<WithResponse<{ id: number }>>();
    expectTypeOf(call.asResponse()).resolves.toEqualTypeOf<Response>();
  });

  it('is a Promise whose then, catch and finally read the answer, and derived promises are plain', async () => {
    const call = new ApiPromise(answer(3));
    expect(call).toBeInstanceOf(Promise);
    const doubled = call.then((value) => value * 2);
    expect(doubled).not.toBeInstanceOf(ApiPromise);
    expect(await doubled).toBe(6);
    let settled = false;
    expect(
      await call.finally(() => {
        settled = true;
      }),
    ).toBe(3);
    expect(settled).toBe(true);
  });

  it('passes the data on when then is given no function, as a promise does', async () => {
    const call = new ApiPromise(answer(3));
    expect(await call.then(5 as never)).toBe(3);
    expect(await call.then(undefined, () => 'never')).toBe(3);
  });

  it('rejects every way it is read when the call fails', async () => {
    const failure = new Error('boom');
    const call = new ApiPromise<number>(Promise.reject(failure));
    await expect(call).rejects.toBe(failure);
    await expect(call.withResponse()).rejects.toBe(failure);
    await expect(call.asResponse()).rejects.toBe(failure);
    expect(await call.catch((error: unknown) => (error as Error).message)).toBe('boom');
  });

  it('maps the data once for both ways of reading it', async () => {
    const call = mapApiPromise(answer({ product: { id: 1 } }), (data) => data.product);
    expect(await call).toEqual({ id: 1 });
    expect((await call.withResponse()).data).toEqual({ id: 1 });
    expectTypeOf(call).resolves.toEqualTypeOf<{ id: number }>();
  });
});
