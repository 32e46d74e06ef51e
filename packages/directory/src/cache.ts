/**
 * The directory client's HTTP cache, built at its first call: kept out of the import of the client, so code that
 * imports one operation does not carry the cache until it sends.
 */
import {
  type ClientOptions,
  createLogger,
  HttpCache,
  LOG_ENV_VAR,
  parseLogLevel,
  type RedisClientLike,
  readEnv,
} from '@agent-apis/core';

/** A new in-memory cache, or, given a Redis client, one whose answers every process of the fleet shares. */
export function directoryCache(shared?: {
  redis: RedisClientLike;
  options: Pick<ClientOptions, 'logger' | 'logLevel'>;
}): HttpCache {
  if (!shared) return new HttpCache();
  const { redis, options } = shared;
  // A Redis outage is worth a warning even when no log level is set; `logLevel: 'off'` silences it.
  const logger = createLogger({
    sink: options.logger,
    level: options.logLevel ?? parseLogLevel(readEnv(LOG_ENV_VAR)) ?? 'warn',
  });
  return new HttpCache({ shared: { redis, logger } });
}
