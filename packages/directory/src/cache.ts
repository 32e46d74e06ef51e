/**
 * The directory client's shared HTTP cache (a Redis tier under the in-memory one), built at its first call: kept out
 * of the import of the client, so code that imports one operation does not carry it until it sends. The default
 * in-memory cache needs no module of its own (`client.ts` builds it from core's `HttpCache`).
 */
import type { ClientOptions, RedisClientLike } from '@agent-apis/core';
import { HttpCache, LOG_ENV_VAR } from '@agent-apis/core';
import { createLogger, parseLogLevel } from '@agent-apis/core/call';
import { readEnv } from '@agent-apis/core/service';

/**
 * The transport's cache whose answers every process of the fleet shares through Redis, sealed with the fleet's
 * secret, with a logger for Redis outages (from core's call path, which the first call is loading anyway).
 */
export function sharedDirectoryCache({
  redis,
  secret,
  options,
}: {
  redis: RedisClientLike;
  secret: string;
  options: Pick<ClientOptions, 'logger' | 'logLevel'>;
}): { cache: HttpCache } {
  // A Redis outage is worth a warning even when no log level is set; `logLevel: 'off'` silences it.
  const logger = createLogger({
    sink: options.logger,
    level: options.logLevel ?? parseLogLevel(readEnv(LOG_ENV_VAR)) ?? 'warn',
  });
  return { cache: new HttpCache({ sharedMaxAge: true, shared: { redis, logger, secret } }) };
}
