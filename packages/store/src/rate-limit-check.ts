/** The check of the store client's `rateLimit` option at construction (the limiter itself loads at the first call). */

import { AgentApiError } from '@agent-apis/core';
import { assertRedisClient } from '@agent-apis/core/service';
import type { StoreRateLimitOptions } from './rate-limit-options.js';

/** Checks the `rateLimit` option before any request; throws an {@link AgentApiError} naming the bad field. */
export function checkRateLimitOptions(options: StoreRateLimitOptions | false | undefined): void {
  if (options === undefined || options === false) return;
  if (typeof options !== 'object' || options === null) {
    throw new AgentApiError('StoreClient rateLimit must be an object or false');
  }
  for (const field of ['perSecond', 'perMinute', 'workers'] as const) {
    const value = options[field];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new AgentApiError(`StoreClient rateLimit.${field} must be a whole number ≥ 1, got ${String(value)}`);
    }
  }
  if (options.key !== undefined && (typeof options.key !== 'string' || options.key.trim() === '')) {
    throw new AgentApiError('StoreClient rateLimit.key must be a non-empty string');
  }
  if (options.key !== undefined && options.redis === undefined) {
    throw new AgentApiError('StoreClient rateLimit.key names a Redis budget: pass rateLimit.redis with it');
  }
  if (options.redis !== undefined) assertRedisClient('StoreClient rateLimit.redis', options.redis);
}
