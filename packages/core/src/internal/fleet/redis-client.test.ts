import { describe, expect, it } from 'vitest';
import { AgentApiError } from '../call/errors.js';
import { assertRedisClient } from './redis-client.js';

/** An object shaped like a node-redis client that records the listeners added to it. */
function fakeRedis(existingErrorListeners = 0) {
  const added: string[] = [];
  const client = {
    get: () => undefined,
    mGet: () => undefined,
    set: () => undefined,
    del: () => undefined,
    sendCommand: () => undefined,
    on: (event: string) => {
      added.push(event);
      return client;
    },
    listenerCount: () => existingErrorListeners + added.length,
  };
  return { client, added };
}

describe('assertRedisClient', () => {
  it('guards a client without an error listener at once, so a Redis outage before the first call cannot crash', () => {
    const { client, added } = fakeRedis();
    assertRedisClient('cache.redis', client);
    assertRedisClient('cache.redis', client);
    expect(added).toEqual(['error']);
  });

  it("leaves a client alone that has the application's own error listener", () => {
    const { client, added } = fakeRedis(1);
    assertRedisClient('cache.redis', client);
    expect(added).toEqual([]);
  });

  it('names the field and the missing method of something that is not a client', () => {
    expect(() => assertRedisClient('rateLimit.redis', { get: () => undefined })).toThrow(AgentApiError);
    expect(() => assertRedisClient('rateLimit.redis', { get: () => undefined })).toThrow(/rateLimit\.redis.*mGet\(\)/);
  });
});
