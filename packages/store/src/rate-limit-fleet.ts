/**
 * The store's budget shared by a fleet: every client of the same store and login, in any process or machine,
 * spends one budget kept in Redis (through the official `redis` client and rate-limiter-flexible's atomic
 * windows). Callers wait their turn in a FIFO per process; nothing is refused for lack of budget. When Redis is
 * down, slow or lost, each process keeps to a conservative share of the budget until it returns.
 */

import {
  sleep as defaultSleep,
  fingerprint,
  type Logger,
  RateLimiter,
  type RateLimitGate,
  type RateLimitUpdate,
  type RateLimitWindow,
  type RedisClientLike,
  RedisHealth,
  type Sleep,
  sha256Hex,
  WaiterQueue,
  withDeadline,
} from '@agent-apis/core';
import type { StoreCredentials } from './auth.js';
import {
  DEFAULT_FLEET_WORKERS,
  DEFAULT_RATE_LIMIT,
  type FleetRedisClient,
  type StoreRateLimitOptions,
} from './rate-limit-options.js';

/** Pause of the fleet after the store reports its second full. */
const FULL_SECOND_PAUSE_MS = 250;

/** The budget each process keeps to while Redis is unavailable: every window divided among `workers`. */
export function fleetShare(windows: readonly RateLimitWindow[], workers: number): RateLimitWindow[] {
  return windows.map(({ limit, windowMs }) =>
    limit >= workers
      ? { limit: Math.floor(limit / workers), windowMs }
      : { limit: 1, windowMs: Math.ceil((windowMs * workers) / limit) },
  );
}

/** Options of {@link FleetRateLimiter}. */
export interface FleetRateLimiterOptions {
  redis: RedisClientLike;
  /** Prefix of every Redis key of this budget (names the store and a hash of the login, never a credential). */
  key: string | Promise<string>;
  /** Requests per second and per minute of the whole fleet. */
  perSecond: number;
  perMinute: number;
  /** Processes to assume while Redis is unavailable. */
  workers: number;
  /** Where the one warning per outage goes. */
  logger: Logger;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  sleep?: Sleep;
}

type Limiters = {
  slots: import('rate-limiter-flexible').RateLimiterRedis;
  seconds: import('rate-limiter-flexible').RateLimiterRedis;
};

/**
 * One store budget shared through Redis.
 *
 * - **Per second**: time is cut into slots of `1000 / (perSecond - perSecond/10)` ms (55.6 ms for 20/s) and each
 *   slot is granted once across the fleet (a rate-limiter-flexible window of one point per slot key), so any
 *   sliding second holds at most `perSecond - perSecond/10 + 1` grants: the store's sliding window is never
 *   exceeded, and a busy fleet still gets 90 % of it.
 * - **Per minute**: every grant counts in its second's counter (an atomic rate-limiter-flexible window that lives
 *   61 s); the holder of a slot sums the last 60 counters and goes only while they stay under `perMinute` less one
 *   second's worth (the granularity of the counters). Holding the slot makes the check-then-count race-free.
 * - **Pauses**: a 429's `Retry-After` and a ban's reset are written to Redis, and every process waits them out.
 * - **Faults**: any Redis error, a command slower than 1 s (`REDIS_COMMAND_TIMEOUT_MS`) or a client that is not
 *   ready switches this process to an in-process limiter holding `1 / workers` of each window (never unlimited),
 *   after one warning; Redis is tried again every second and used as soon as it answers.
 */
export class FleetRateLimiter implements RateLimitGate {
  readonly #options: FleetRateLimiterOptions;
  readonly #key: Promise<string>;
  readonly #queue = new WaiterQueue(() => this.#idle?.abort());
  readonly #fallback: RateLimiter;
  readonly #slotMs: number;
  readonly #minuteBudget: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #limiters: Promise<Limiters> | undefined;
  /** Redis clock minus local clock, measured once per connection. */
  #clockOffset: Promise<number> | undefined;
  #serving = false;
  #idle: AbortController | undefined;
  readonly #health: RedisHealth;
  #localPauseUntil = 0;

  constructor(options: FleetRateLimiterOptions) {
    this.#options = options;
    this.#key = Promise.resolve(options.key);
    this.#now = options.now ?? (() => Date.now());
    this.#sleep = options.sleep ?? defaultSleep;
    const slotsPerSecond = Math.max(1, options.perSecond - Math.max(1, Math.round(options.perSecond / 10)));
    this.#slotMs = 1_000 / slotsPerSecond;
    this.#minuteBudget = Math.max(1, options.perMinute - slotsPerSecond);
    this.#fallback = new RateLimiter({
      windows: fleetShare(
        [
          { limit: options.perSecond, windowMs: 1_000 },
          { limit: options.perMinute, windowMs: 60_000 },
        ],
        options.workers,
      ),
      now: this.#now,
      sleep: this.#sleep,
    });
    this.#health = new RedisHealth(
      options.redis,
      options.logger,
      'StoreClient rate limit',
      `this process keeps to 1/${options.workers} of the budget (rateLimit.workers) until Redis answers again`,
      this.#now,
    );
  }

  /** Callers waiting in this process. */
  get pending(): number {
    return this.#queue.size;
  }

  /** True while this process keeps to its share because Redis is unavailable. */
  get degraded(): boolean {
    return this.#health.down;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    const granted = this.#queue.wait(signal);
    void this.#serve();
    return granted;
  }

  /**
   * Server reports keep the fallback's windows current; the fleet's own counts are in Redis. A report that the
   * store's second is full (a request of the fleet reached it later than its slot, e.g. from a stalled process)
   * pauses the fleet for a quarter of a second, so the next slots do not meet a 429.
   */
  update(report: RateLimitUpdate): void {
    this.#fallback.update(report);
    if (report.windowMs === 1_000 && report.remaining === 0) this.hold(this.#now() + FULL_SECOND_PAUSE_MS, 'full');
  }

  /** Holds every process of the fleet for `ms` (a 429's Retry-After). */
  penalize(ms: number): void {
    this.hold(this.#now() + ms, 'pause');
  }

  /**
   * Holds every process of the fleet until `until` (epoch ms): a ban's reset, a 429's pause, or a full second.
   * Each kind has its own key, so a short hold never shortens a longer one of another kind.
   */
  hold(until: number, kind: 'ban' | 'pause' | 'full' = 'ban'): void {
    const ms = until - this.#now();
    if (ms <= 0) return;
    this.#localPauseUntil = Math.max(this.#localPauseUntil, until);
    this.#fallback.penalize(ms);
    if (this.degraded) return;
    const { redis } = this.#options;
    const shared = this.#key.then((key) => redis.set(`${key}:${kind}`, String(until), { PX: Math.ceil(ms) }));
    withDeadline(shared).catch((error: unknown) => this.#degrade(error));
  }

  async #serve(): Promise<void> {
    if (this.#serving) return;
    this.#serving = true;
    try {
      while (this.#queue.size > 0) {
        const waitMs = await this.#tryGrant();
        if (waitMs === 0) {
          this.#queue.grantFirst();
          continue;
        }
        this.#idle = new AbortController();
        const slept = await this.#sleep(waitMs, this.#idle.signal).then(
          () => true,
          () => false,
        );
        if (!slept && this.#queue.size === 0) break;
      }
    } finally {
      this.#serving = false;
    }
  }

  /** 0 when one more request may go now, else how long to wait before asking again. */
  async #tryGrant(): Promise<number> {
    const now = this.#now();
    if (this.#localPauseUntil > now) return this.#localPauseUntil - now;
    if (!this.#health.down) {
      try {
        const waitMs = await this.#tryRedisGrant();
        this.#health.succeeded();
        return waitMs;
      } catch (error) {
        this.#degrade(error);
      }
    }
    // The fallback's own FIFO does the waiting; the head of ours goes once it grants.
    await this.#fallback.acquire();
    return 0;
  }

  async #tryRedisGrant(): Promise<number> {
    const { redis } = this.#options;
    const key = await this.#key;
    this.#limiters ??= this.#createLimiters();
    this.#clockOffset ??= this.#measureClock();
    // Loading the limiter module is local work, not a Redis command: no Redis deadline on it (a cold import on a
    // busy machine may take over a second and must not read as Redis being down).
    const limiters = await this.#limiters;
    const offset = await withDeadline(this.#clockOffset);
    const now = this.#now() + offset;
    const slot = Math.floor(now / this.#slotMs);
    const nextSlotMs = Math.max(1, Math.ceil((slot + 1) * this.#slotMs - now));
    const won = await withDeadline(
      limiters.slots.consume(String(slot)).then(
        () => true,
        (refusal: unknown) => {
          if (refusal instanceof Error) throw refusal;
          return false;
        },
      ),
    );
    if (!won) return nextSlotMs;
    // This process holds the slot: nobody else grants until the next one, so the minute check cannot race.
    const second = Math.floor(now / 1_000);
    const counterKeys = Array.from({ length: 60 }, (_, age) => limiters.seconds.getKey(String(second - age)));
    const [ban, pause, full, ...counts] = await withDeadline(
      redis.mGet([`${key}:ban`, `${key}:pause`, `${key}:full`, ...counterKeys]),
    );
    // Holds are absolute times (a ban's reset comes from the store's clock), read on this process's clock.
    const heldUntil = Math.max(...[ban, pause, full].map((until) => Number(until ?? 0) || 0));
    if (heldUntil > this.#now()) {
      this.#localPauseUntil = Math.max(this.#localPauseUntil, heldUntil);
      return heldUntil - this.#now();
    }
    let used = counts.reduce((sum, count) => sum + (Number(count ?? 0) || 0), 0);
    if (used >= this.#minuteBudget) {
      // Wait until enough of the oldest seconds leave the minute.
      let age = 59;
      for (; age > 0 && used >= this.#minuteBudget; age--) used -= Number(counts[age] ?? 0) || 0;
      return Math.max(nextSlotMs, (second - age - 1 + 60) * 1_000 - now + 1);
    }
    await withDeadline(
      limiters.seconds.consume(String(second)).catch((refusal: unknown) => {
        if (refusal instanceof Error) throw refusal;
      }),
    );
    return 0;
  }

  async #createLimiters(): Promise<Limiters> {
    // The Redis limiter's own module, not the package index: the index loads every other backend too, among them
    // one importing a computed specifier, which bundlers for workers refuse.
    const { default: RateLimiterRedis } = await import('rate-limiter-flexible/lib/RateLimiterRedis.js');
    const { redis } = this.#options;
    const key = await this.#key;
    const common = { storeClient: redis, useRedisPackage: true, rejectIfRedisNotReady: true };
    return {
      // One grant per slot key; the key lives a second, long after its slot ended.
      slots: new RateLimiterRedis({ ...common, keyPrefix: `${key}:slot`, points: 1, duration: 1 }),
      // A counter per second that outlives the minute it counts in.
      seconds: new RateLimiterRedis({ ...common, keyPrefix: `${key}:second`, points: 1_000_000, duration: 61 }),
    };
  }

  /** Redis clock minus ours (Redis TIME, corrected by half the round trip): every process slots on one clock. */
  async #measureClock(): Promise<number> {
    const sent = this.#now();
    const reply = (await this.#options.redis.sendCommand(['TIME'])) as [string, string];
    const received = this.#now();
    const redisNow = Number(reply[0]) * 1_000 + Number(reply[1]) / 1_000;
    return redisNow - (sent + received) / 2;
  }

  #degrade(error: unknown): void {
    this.#clockOffset = undefined;
    // Grants made through Redis in the last second still count at the store: start the share after it.
    if (this.#health.failed(error)) this.#fallback.penalize(1_000);
  }
}

/**
 * The Redis key prefix of a store budget: the base URL and a SHA-256 of the login (Basic) or of the access token
 * (bearer), so the key never holds a credential.
 */
export async function fleetKey(baseUrl: string, credentials: StoreCredentials): Promise<string> {
  const who = credentials.scheme === 'basic' ? `login:${credentials.login}` : `bearer:${credentials.accessToken}`;
  return `agent-apis:store-rate-limit:${baseUrl.replace(/\/+$/, '')}:${await sha256Hex(who)}`;
}

const fleetLimiters = new WeakMap<FleetRedisClient, Map<string, FleetRateLimiter>>();

/**
 * The fleet limiter of everyone in this process using `redis` for this budget: one FIFO per process and key.
 * The first client to create it sets its windows and logger.
 */
export function sharedFleetRateLimiter(
  baseUrl: string,
  credentials: StoreCredentials,
  options: StoreRateLimitOptions & { redis: FleetRedisClient },
  logger: Logger,
): FleetRateLimiter {
  const { redis } = options;
  const identity = credentials.scheme === 'basic' ? [credentials.login] : [credentials.accessToken];
  const registryKey = options.key === undefined ? fingerprint('store', baseUrl, ...identity) : `key:${options.key}`;
  let limiters = fleetLimiters.get(redis);
  if (!limiters) {
    limiters = new Map();
    fleetLimiters.set(redis, limiters);
  }
  let limiter = limiters.get(registryKey);
  if (!limiter) {
    limiter = new FleetRateLimiter({
      redis,
      key: options.key ?? fleetKey(baseUrl, credentials),
      perSecond: options.perSecond ?? DEFAULT_RATE_LIMIT.perSecond,
      perMinute: options.perMinute ?? DEFAULT_RATE_LIMIT.perMinute,
      workers: options.workers ?? DEFAULT_FLEET_WORKERS,
      logger,
    });
    limiters.set(registryKey, limiter);
  }
  return limiter;
}
