/**
 * The directory client's HTTP cache, built at its first call: kept out of the import of the client, so code that
 * imports one operation does not carry the cache until it sends.
 */
import type { ClientOptions, RedisClientLike } from '@agent-apis/core';
// Through core's entries, not its index: Node loads every module an index names, and the first call waits for them.
import { createLogger, parseLogLevel } from '@agent-apis/core/call';
import { LOG_ENV_VAR, readEnv } from '@agent-apis/core/client';
import { HttpCache } from '@agent-apis/core/http-cache';

/**
 * A new in-memory cache, or, given a Redis client and the fleet's secret, one whose answers every process of the
 * fleet shares. Both honour `s-maxage`: the directory is keyless and public, so its answers are everyone's.
 */
export function directoryCache(shared?: {
  redis: RedisClientLike;
  secret: string;
  options: Pick<ClientOptions, 'logger' | 'logLevel'>;
}): HttpCache {
  if (!shared) return new HttpCache({ sharedMaxAge: true });
  const { redis, secret, options } = shared;
  // A Redis outage is worth a warning even when no log level is set; `logLevel: 'off'` silences it.
  const logger = createLogger({
    sink: options.logger,
    level: options.logLevel ?? parseLogLevel(readEnv(LOG_ENV_VAR)) ?? 'warn',
  });
  return new HttpCache({ sharedMaxAge: true, shared: { redis, logger, secret } });
}
