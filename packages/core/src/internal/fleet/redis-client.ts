/**
 * The shape of the node-redis client the fleet options take, and its check at construction: apart from the Redis
 * code itself, which loads only when a Redis option is used.
 */
import { AgentApiError } from '../call/errors.js';

/** The part of a connected node-redis (v5 or later) client the fleet features use: pass the client itself. */
export interface RedisClientLike {
  /** True while connected and ready for commands. */
  readonly isReady: boolean;
  get(key: string): Promise<string | null>;
  mGet(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, options?: { PX?: number; NX?: boolean; XX?: boolean }): Promise<string | null>;
  del(keys: string | string[]): Promise<number>;
  sendCommand(args: string[]): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  listenerCount(event: 'error'): number;
}

/** Checks `redis` looks like a node-redis client (throws an {@link AgentApiError} naming `field`) and guards it. */
export function assertRedisClient(field: string, redis: unknown): asserts redis is RedisClientLike {
  const needed = ['get', 'mGet', 'set', 'del', 'sendCommand', 'on', 'listenerCount'] as const;
  const missing =
    typeof redis !== 'object' || redis === null
      ? 'an object'
      : needed.find((name) => typeof (redis as Record<string, unknown>)[name] !== 'function');
  if (missing !== undefined) {
    throw new AgentApiError(
      `${field} must be a node-redis client (createClient from the "redis" package, v5 or later); ${
        missing === 'an object' ? `got ${redis === null ? 'null' : typeof redis}` : `it has no ${missing}() method`
      }`,
    );
  }
  guardRedisClient(redis as RedisClientLike);
}

/**
 * A node-redis client emits `error` events and crashes the process when none is listened to: a listener is added
 * when the application has none (once: the client then has one), as soon as a client option takes the client.
 */
export function guardRedisClient(redis: RedisClientLike): void {
  if (redis.listenerCount('error') === 0) redis.on('error', () => undefined);
}
