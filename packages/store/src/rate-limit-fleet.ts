/**
 * The store's budget shared by a fleet: every client of the same store and login, in any process or machine,
 * spends one budget kept in Redis. Callers wait their turn in a FIFO per process; nothing is refused for lack of
 * budget, and no wait outlives its call (the transport aborts it at the call's timeout or signal). When Redis is
 * down, slow or lost, each process keeps to a conservative share of the budget until it returns.
 */

import type { Logger, RateLimitUpdate, RateLimitWindow, RedisClientLike } from '@agent-apis/core';
import { RedisUnavailableError } from '@agent-apis/core';
import {
  sleep as defaultSleep,
  fingerprint,
  RateLimiter,
  type RateLimitGate,
  RedisHealth,
  runScript,
  type Sleep,
  sha256Hex,
  signValue,
  verifyValue,
  WaiterQueue,
  withDeadline,
} from '@agent-apis/core/call';
import type { StoreCredentials } from './auth.js';
import {
  DEFAULT_FLEET_WORKERS,
  DEFAULT_RATE_LIMIT,
  type FleetRedisClient,
  MAX_HOLD_MS,
  type StoreRateLimitOptions,
} from './rate-limit-options.js';

/** Pause of the fleet after the store reports its second full. */
const FULL_SECOND_PAUSE_MS = 250;

/** A grant whose round trip takes longer than this counts as Redis being unavailable (slow Redis is degraded Redis). */
export const SLOW_GRANT_MS = 500;

/** How far ahead of now a process may reserve grants in one round trip. */
const RESERVE_AHEAD_MS = 1_000;

/** Longest pause before a hold read from Redis is looked at again (it may have been lifted). */
const HOLD_RECHECK_MS = 5_000;

/** Largest hold value read from Redis (a signed time is under 70 bytes). */
const MAX_HOLD_BYTES = 256;

/** What holds are signed for. */
const PURPOSE = 'store-hold';

/**
 * One round trip per grant. On Redis's clock it reads the three holds (each only when it is a string of at most
 * ARGV[5] bytes: the client checks their signatures), then reserves up to ARGV[2] consecutive slots of ARGV[1] ms
 * from the fleet's next free slot (KEYS[1]), no further than ARGV[4] ms ahead, within the minute budget ARGV[3]
 * counted per second under prefix ARGV[6] (a count that is not a number, negative or above the budget reads as 0
 * or the budget). Returns { granted, ms until the first grant or until asking again, ban, pause, full }.
 */
const GRANT = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slotMs = tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local ahead = tonumber(ARGV[4])
local maxHold = tonumber(ARGV[5])
local prefix = ARGV[6]
local function bounded(key, max)
  if redis.call('TYPE', key).ok ~= 'string' then return false end
  if redis.call('STRLEN', key) > max then return false end
  return redis.call('GET', key)
end
local ban = bounded(KEYS[2], maxHold)
local pause = bounded(KEYS[3], maxHold)
local full = bounded(KEYS[4], maxHold)
local start = tonumber(bounded(KEYS[1], 32) or '')
if not start or start ~= start or start < now or start > now + ahead + slotMs then start = now end
if start - now > ahead then return {0, tostring(start - now), ban, pause, full} end
local second = math.floor(start / 1000)
local counts = {}
local used = 0
for age = 0, 59 do
  local count = tonumber(bounded(prefix .. (second - age), 24) or '')
  if not count or count ~= count or count < 0 then count = 0 end
  if count > budget then count = budget end
  counts[age] = count
  used = used + count
end
local n = math.min(want, budget - used, math.floor((now + ahead - start) / slotMs) + 1)
if n <= 0 then
  local age = 59
  while age > 0 and used >= budget do
    used = used - counts[age]
    age = age - 1
  end
  return {0, tostring(math.max(slotMs, (second - age + 59) * 1000 - now + 1)), ban, pause, full}
end
redis.call('SET', prefix .. second, tostring(counts[0] + n), 'PX', 61000)
redis.call('SET', KEYS[1], tostring(start + n * slotMs), 'PX', math.ceil(ahead + (n + 1) * slotMs))
return {n, tostring(start - now), ban, pause, full}`;

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
  /**
   * The secret holds are signed with: the store credential's own secret (the `authToken` of a Basic login, the
   * access token of OAuth), which every process of the fleet holds and a Redis user does not. Never written to Redis.
   */
  secret: string;
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

/** What one grant round trip came to. */
interface Trip {
  /** When the trip was sent (this process's clock). */
  sentAt: number;
  /** Grants reserved for this process, the first `firstInMs` from the answer, then one a slot apart. */
  granted: number;
  /** Until the first grant, or (none granted) until asking again. */
  firstInMs: number;
  /** The latest genuine hold of the fleet (epoch ms), re-capped to {@link MAX_HOLD_MS} from now; 0 when none. */
  heldUntil: number;
}

/**
 * One store budget shared through Redis.
 *
 * - **Per second**: the fleet's grants are spaced one slot of `1000 / (perSecond - perSecond/10)` ms (55.6 ms for
 *   20/s) apart on Redis's clock, so any sliding second holds at most `perSecond - perSecond/10 + 1` grants: the
 *   store's sliding window is never exceeded, and a busy fleet still gets 90 % of it.
 * - **Per minute**: every grant counts in its second's counter; a reservation goes only while the last 60 counters
 *   stay under `perMinute` less one second's worth.
 * - **One round trip per grant trip**: a script reads the holds, reserves up to a quarter of a second's slots for
 *   the waiters of this process and counts them, atomically; the process hands them out a slot apart.
 * - **Pauses**: a 429's `Retry-After` and a ban's reset (capped at 24 h) are written to Redis signed with the
 *   credential's secret, and every process waits them out; a hold without a valid signature is ignored, and a
 *   hold read from Redis is looked at again every 5 s.
 * - **Faults**: any Redis error, a grant slower than {@link SLOW_GRANT_MS}, a command slower than 1 s or a client
 *   that is not ready switches this process to an in-process limiter holding `1 / workers` of each window (never
 *   unlimited), after one warning; Redis is tried again every second and used as soon as it answers in time.
 */
export class FleetRateLimiter implements RateLimitGate {
  readonly #options: FleetRateLimiterOptions;
  readonly #key: Promise<string>;
  readonly #queue = new WaiterQueue(() => this.#idle?.abort());
  readonly #fallback: RateLimiter;
  readonly #slotMs: number;
  readonly #batch: number;
  readonly #minuteBudget: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  #serving = false;
  #idle: AbortController | undefined;
  readonly #health: RedisHealth;
  /** The grant script loaded into Redis once per connection, untimed: a first round trip that is not a grant. */
  #loaded: Promise<unknown> | undefined;
  /** Set by a failed or slow trip: grants come from the share until a probe answers in time. */
  #slow = false;
  /** A trip asking for no grant, run beside the share's grants while degraded: is Redis back, and any holds. */
  #probing: Promise<void> | undefined;
  /** The latest genuine hold read from Redis (epoch ms), as of the last trip. */
  #heldUntil = 0;
  /** A hold this process set itself (its own 429 or ban), until Redis has it; capped. */
  #localPauseUntil = 0;

  constructor(options: FleetRateLimiterOptions) {
    this.#options = options;
    this.#key = Promise.resolve(options.key);
    this.#now = options.now ?? (() => Date.now());
    this.#sleep = options.sleep ?? defaultSleep;
    const slotsPerSecond = Math.max(1, options.perSecond - Math.max(1, Math.round(options.perSecond / 10)));
    this.#slotMs = 1_000 / slotsPerSecond;
    this.#batch = Math.max(1, Math.floor(slotsPerSecond / 4));
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
    return this.#slow || this.#health.down;
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
   * Holds every process of the fleet until `until` (epoch ms), at most {@link MAX_HOLD_MS} from now: a ban's reset,
   * a 429's pause, or a full second. Each kind has its own key, so a short hold never shortens a longer one of
   * another kind. The value is signed with the credential's secret: no one else can write one the fleet obeys.
   */
  hold(until: number, kind: 'ban' | 'pause' | 'full' = 'ban'): void {
    const now = this.#now();
    const capped = Math.min(until, now + MAX_HOLD_MS);
    const ms = capped - now;
    if (!(ms > 0)) return;
    this.#localPauseUntil = Math.max(this.#localPauseUntil, capped);
    this.#fallback.penalize(ms);
    // Written even while this process keeps to its share (a slow Redis still takes writes): the others need it.
    // A client that is not connected would only queue it.
    const { redis, secret } = this.#options;
    if (!redis.isReady) return;
    const shared = this.#key.then(async (key) => {
      const holdKey = `${key}:${kind}`;
      const value = await signValue(secret, PURPOSE, holdKey, String(Math.round(capped)));
      return redis.set(holdKey, value, { PX: Math.ceil(ms) });
    });
    // Once the hold is in Redis, Redis is where every process (this one too) reads it, so it can be lifted there.
    withDeadline(shared).then(
      () => {
        if (this.#localPauseUntil === capped) this.#localPauseUntil = 0;
      },
      (error: unknown) => this.#degrade(error),
    );
  }

  async #serve(): Promise<void> {
    if (this.#serving) return;
    this.#serving = true;
    try {
      while (this.#queue.size > 0) {
        const waitMs = await this.#grantSome();
        if (waitMs === 0 || this.#queue.size === 0) continue;
        if (!(await this.#pause(waitMs)) && this.#queue.size === 0) break;
      }
    } finally {
      this.#serving = false;
    }
  }

  /** Sleeps `ms` unless the queue empties first; false when it was cut short. */
  #pause(ms: number): Promise<boolean> {
    this.#idle = new AbortController();
    return this.#sleep(ms, this.#idle.signal).then(
      () => true,
      () => false,
    );
  }

  /** Grants what it can now (0), or says how long to wait before asking again. */
  async #grantSome(): Promise<number> {
    const now = this.#now();
    if (this.#localPauseUntil > now) return this.#localPauseUntil - now;
    if (!this.degraded) {
      let trip: Trip | undefined;
      try {
        trip = await this.#redisTrip(Math.min(this.#queue.size, this.#batch));
      } catch (error) {
        this.#degrade(error);
      }
      if (trip) return this.#handOut(trip);
    }
    // Degraded: Redis is probed beside the share's grants (never in their way), at most once a second; a hold a
    // probe read is kept to.
    this.#probe();
    if (this.#heldUntil > this.#now()) return Math.min(this.#heldUntil - this.#now(), HOLD_RECHECK_MS);
    // The fallback's own FIFO does the waiting; the head of ours goes once it grants. Nobody left waiting here
    // ends that wait too.
    this.#idle = new AbortController();
    if (
      await this.#fallback.acquire(this.#idle.signal).then(
        () => true,
        () => false,
      )
    )
      this.#queue.grantFirst();
    return 0;
  }

  /** Starts a probe unless one runs or Redis is left alone for now (a second after a failure). */
  #probe(): void {
    if (this.#probing || this.#health.down) return;
    this.#probing = this.#redisTrip(0)
      .then(
        () => undefined,
        (error: unknown) => this.#degrade(error),
      )
      .finally(() => {
        this.#probing = undefined;
      });
  }

  /** Hands out a trip's reservations a slot apart (the first after `firstInMs`); returns the wait before the next trip. */
  async #handOut(trip: Trip): Promise<number> {
    const now = this.#now();
    if (trip.heldUntil > now) return Math.min(trip.heldUntil - now, HOLD_RECHECK_MS);
    if (trip.granted === 0) return Math.max(1, trip.firstInMs);
    // Slots are on Redis's clock when the script ran, between sending and the answer: counted from the sending, a
    // grant goes no later than its slot's share of the round trip.
    for (let index = 0; index < trip.granted && this.#queue.size > 0; index++) {
      const dueIn = trip.sentAt + trip.firstInMs + index * this.#slotMs - this.#now();
      if (dueIn >= 1 && !(await this.#pause(dueIn))) break;
      this.#queue.grantFirst();
    }
    return 0;
  }

  /** One round trip: holds, and up to `want` grants for this process's waiters (none for a probe). */
  async #redisTrip(want: number): Promise<Trip> {
    const { redis, secret } = this.#options;
    const key = await this.#key;
    const holdKeys = [`${key}:ban`, `${key}:pause`, `${key}:full`];
    // Loading the script is not a grant: it is not timed against the bound (nor is a cold start's first command).
    this.#loaded ??= withDeadline(redis.sendCommand(['SCRIPT', 'LOAD', GRANT]));
    try {
      await this.#loaded;
    } catch (error) {
      this.#loaded = undefined;
      throw error;
    }
    const sentAt = this.#now();
    const reply = await withDeadline(
      runScript(
        redis,
        GRANT,
        [`${key}:next`, ...holdKeys],
        [
          String(this.#slotMs),
          String(want),
          String(this.#minuteBudget),
          String(RESERVE_AHEAD_MS),
          String(MAX_HOLD_BYTES),
          `${key}:second:`,
        ],
      ),
    );
    const tookMs = this.#now() - sentAt;
    if (!Array.isArray(reply)) throw new RedisUnavailableError('the grant script answered something else');
    const [granted, firstInMs, ...holds] = reply as [unknown, unknown, ...unknown[]];
    // Holds are absolute times (a ban's reset comes from the store's clock), signed by a holder of the credential.
    let heldUntil = 0;
    const ceiling = this.#now() + MAX_HOLD_MS;
    for (const [index, value] of holds.entries()) {
      const holdKey = holdKeys[index];
      if (typeof value !== 'string' || holdKey === undefined) continue;
      const until = Number(await verifyValue(secret, PURPOSE, holdKey, value));
      if (Number.isFinite(until)) heldUntil = Math.max(heldUntil, Math.min(until, ceiling));
    }
    this.#heldUntil = heldUntil;
    const trip: Trip = {
      sentAt,
      granted: Math.max(0, Math.floor(Number(granted) || 0)),
      firstInMs: Math.min(Math.max(0, Number(firstInMs) || 0), 60_000),
      heldUntil,
    };
    if (tookMs > SLOW_GRANT_MS) {
      // Slow Redis is degraded Redis: what this trip reserved is used, later grants keep to this process's share.
      this.#degrade(
        new RedisUnavailableError(`a grant took ${Math.round(tookMs)} ms, over ${SLOW_GRANT_MS} ms`),
        'answered',
      );
    } else {
      this.#slow = false;
      this.#health.succeeded();
    }
    return trip;
  }

  #degrade(error: unknown, how: 'failed' | 'answered' = 'failed'): void {
    this.#slow = true;
    // A new connection (or a restarted Redis) may not have the script; one that answered (slowly) has it.
    if (how === 'failed') this.#loaded = undefined;
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
      secret: credentials.scheme === 'basic' ? credentials.authToken : credentials.accessToken,
      perSecond: options.perSecond ?? DEFAULT_RATE_LIMIT.perSecond,
      perMinute: options.perMinute ?? DEFAULT_RATE_LIMIT.perMinute,
      workers: options.workers ?? DEFAULT_FLEET_WORKERS,
      logger,
    });
    limiters.set(registryKey, limiter);
  }
  return limiter;
}
