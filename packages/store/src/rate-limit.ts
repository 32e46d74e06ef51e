/**
 * The store's request budget (20 a second and 800 a minute per store), kept client-side so callers do not
 * meet 429 in normal use, and adapted to the `Jumpseller-*RateLimit-*` headers the store sends back.
 */
// Through core's entries, not its index: Node loads every module an index names, and the first call waits for them.
import type { ClientOptions, Logger, RateLimitUpdate, RateLimitWindow } from '@agent-apis/core';
import { LOG_ENV_VAR, type RateLimitBanError } from '@agent-apis/core';
import type { CreateFetchOptions } from '@agent-apis/core/call';
import {
  createLogger,
  fingerprint,
  parseLogLevel,
  RateLimiter,
  type RateLimitGate,
  rateLimitBanError,
  rateLimitHooks,
  sharedRateLimiter,
} from '@agent-apis/core/call';
import { readEnv } from '@agent-apis/core/service';
import type { StoreCredentials } from './auth.js';
import type { FleetRateLimiter } from './rate-limit-fleet.js';
import {
  BAN_RESET_HEADER,
  DEFAULT_RATE_LIMIT,
  type FleetRedisClient,
  MAX_HOLD_MS,
  MINUTE_MS,
  RATE_LIMIT_HEADERS,
  SECOND_MS,
  type StoreRateLimitOptions,
} from './rate-limit-options.js';

export {
  BAN_RESET_HEADER,
  DEFAULT_FLEET_WORKERS,
  DEFAULT_RATE_LIMIT,
  type FleetRedisClient,
  MAX_HOLD_MS,
  RATE_LIMIT_HEADERS,
  type StoreRateLimitOptions,
} from './rate-limit-options.js';

/** What the client holds of a fleet limiter: the limiter's hooks, and `hold` for bans. */
export type FleetGate = RateLimitGate & Pick<FleetRateLimiter, 'hold'>;

/**
 * The fleet limiter of this budget, loaded on first use (`rate-limit-fleet.js` stays out
 * of bundles that never share a budget); reports and holds made before it loaded apply once it has.
 */
export function storeFleetRateLimiter(
  baseUrl: string,
  credentials: StoreCredentials,
  options: StoreRateLimitOptions & { redis: FleetRedisClient },
  logger: Logger,
): FleetGate {
  const limiter = import('./rate-limit-fleet.js').then((fleet) =>
    fleet.sharedFleetRateLimiter(baseUrl, credentials, options, logger),
  );
  return {
    acquire: (signal) => limiter.then((fleet) => fleet.acquire(signal)),
    update: (report) => void limiter.then((fleet) => fleet.update(report)),
    penalize: (ms) => void limiter.then((fleet) => fleet.penalize(ms)),
    hold: (until, kind) => void limiter.then((fleet) => fleet.hold(until, kind)),
  };
}

/** The limiter windows for `options`: one of a second and one of a minute. */
export function rateLimitWindows(options: StoreRateLimitOptions = {}): RateLimitWindow[] {
  return [
    { limit: options.perSecond ?? DEFAULT_RATE_LIMIT.perSecond, windowMs: SECOND_MS },
    { limit: options.perMinute ?? DEFAULT_RATE_LIMIT.perMinute, windowMs: MINUTE_MS },
  ];
}

/**
 * The limiter of everyone calling `baseUrl` with these credentials in this process: clients built with the
 * same credentials share one budget. It is keyed by a fingerprint, never by the credentials themselves; the
 * first client to create it sets its windows.
 */
export function storeRateLimiter(
  baseUrl: string,
  identity: readonly string[],
  windows: readonly RateLimitWindow[],
): RateLimiter {
  return sharedRateLimiter(fingerprint('store', baseUrl, ...identity), () => new RateLimiter({ windows }));
}

function readCount(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Reads the store's rate-limit headers for `rateLimitHooks`: one update per window the response reports (the
 * limiter keeps a reported limit from exceeding the configured one).
 */
export function readStoreRateLimitHeaders(headers: Headers): RateLimitUpdate[] {
  return Object.values(RATE_LIMIT_HEADERS).flatMap(({ limit, remaining, windowMs }) => {
    const reportedRemaining = readCount(headers, remaining);
    return reportedRemaining === undefined
      ? []
      : [{ remaining: reportedRemaining, windowMs, limit: readCount(headers, limit) }];
  });
}

/** End of the current ban (ms since epoch) per base URL and credentials fingerprint, shared by all clients. */
const bans = new Map<string, number>();

/**
 * Hooks that stop calls while the store bans these credentials: a response carrying {@link BAN_RESET_HEADER}
 * ends the call at once with a {@link RateLimitBanError} (no retry; every request would extend the ban), and
 * until the reset time every call fails the same way before anything is sent. `limiter` hooks run inside. With a
 * `fleet` limiter the ban is shared instead: every process of the fleet waits until the reset, each call no longer
 * than its own timeout. A reset more than {@link MAX_HOLD_MS} (24 h) away is cut to 24 h, and `warn` is told.
 */
export function storeBanGuard(
  baseUrl: string,
  identity: readonly string[],
  limiter?: Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse'>,
  now: () => number = () => Date.now(),
  fleet?: Pick<FleetGate, 'hold'>,
  warn: (message: string) => void = () => undefined,
): Required<Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse'>> {
  const key = fingerprint('store-ban', baseUrl.replace(/\/+$/, ''), ...identity);
  /** Ends the call when `response` announces a ban. */
  const checkBan = (response: Response): void => {
    const reset = response.headers.get(BAN_RESET_HEADER);
    if (reset === null) return;
    const parsed = Date.parse(reset);
    // An unreadable date still means a ban: hold calls for an hour rather than hammer the store.
    let until = Number.isNaN(parsed) ? now() + 3_600_000 : parsed;
    if (until <= now()) return;
    if (until > now() + MAX_HOLD_MS) {
      until = now() + MAX_HOLD_MS;
      warn(
        `StoreClient: the store's ${BAN_RESET_HEADER} is more than 24 hours away (${JSON.stringify(reset.slice(0, 64))}); calls are held for 24 hours instead`,
      );
    }
    // In a fleet every process, this one included, waits the ban out in its limiter; alone, later calls fail fast.
    if (fleet) fleet.hold(until);
    else bans.set(key, until);
    // The transport has read the body already; a body still open (another caller of the hook) is let go.
    if (!response.bodyUsed) response.body?.cancel().catch(() => undefined);
    throw rateLimitBanError(new Date(until));
  };
  // Neither hook is an `async` function: without a limiter to wait on they return nothing, and the call goes on
  // without a step.
  return {
    beforeRequest: (request, context) => {
      const until = bans.get(key);
      if (until !== undefined && until > now()) throw rateLimitBanError(new Date(until));
      return limiter?.beforeRequest?.(request, context);
    },
    afterResponse: (response, request, context) => {
      const limited = limiter?.afterResponse?.(response, request, context);
      if (limited) return limited.then(() => checkBan(response));
      checkBan(response);
    },
  };
}

/** The credentials a store client calls with, and what the logger masks (worked out by auth). */
export interface StoreIdentity {
  credentials: StoreCredentials;
  /** The values to mask in log lines. */
  secrets: readonly string[];
}

/** The parts that identify whose budget a request spends (hashed by `fingerprint`, never stored raw). */
export function credentialIdentity(credentials: StoreCredentials): string[] {
  return credentials.scheme === 'basic'
    ? ['basic', credentials.login, credentials.authToken]
    : ['bearer', credentials.accessToken];
}

/**
 * The store client's rate limiting and ban guard, built at its first call: the in-process limiter (or the fleet's,
 * through Redis) unless `rateLimit` is `false`, and the guard that holds calls while the store bans the credentials.
 */
export function storeTransportOptions(
  baseUrl: string,
  who: StoreIdentity,
  options: Pick<ClientOptions, 'logger' | 'logLevel'> & { rateLimit?: StoreRateLimitOptions | false | undefined },
): Required<Pick<CreateFetchOptions, 'beforeRequest' | 'afterResponse'>> {
  const { credentials, secrets } = who;
  const identity = credentialIdentity(credentials);
  const trimmedBaseUrl = baseUrl.replace(/\/+$/, '');
  const redis = options.rateLimit ? options.rateLimit.redis : undefined;
  // A warning is worth giving even when no log level is set; `logLevel: 'off'` silences it.
  let logger: Logger | undefined;
  const warningLogger = (): Logger =>
    (logger ??= createLogger({
      sink: options.logger,
      level: options.logLevel ?? parseLogLevel(readEnv(LOG_ENV_VAR)) ?? 'warn',
      secrets,
    }));
  const limiter =
    options.rateLimit === false
      ? undefined
      : redis
        ? storeFleetRateLimiter(trimmedBaseUrl, credentials, { ...options.rateLimit, redis }, warningLogger())
        : storeRateLimiter(trimmedBaseUrl, identity, rateLimitWindows(options.rateLimit));
  const limiterHooks = limiter ? rateLimitHooks(limiter, readStoreRateLimitHeaders) : undefined;
  const fleet = limiter && 'hold' in limiter ? limiter : undefined;
  return storeBanGuard(baseUrl, identity, limiterHooks, undefined, fleet, (message) => warningLogger().warn(message));
}
