/**
 * A loopback stand-in of the store's rate limits for fleet tests and the workers benchmark: 20 requests in any
 * second and 800 in any minute (sliding, configurable), 429 with `Retry-After` beyond, the store's
 * `Jumpseller-*RateLimit-*` headers on every answer, and an optional ban (`Jumpseller-BannedByRateLimit-Reset`).
 * Every path answers `[]`; it records when each request arrived and how it was answered.
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from './processes.ts';

export interface LimitedStoreOptions {
  perSecond?: number;
  perMinute?: number;
  /** Answer the request with this 1-based number with a ban lasting `ms`. */
  banAt?: { request: number; ms: number };
}

export interface LimitedStore {
  /** Base URL, `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Arrival times (ms since epoch) of accepted requests. */
  accepted: number[];
  /** Arrival times of requests answered 429. */
  rejected: number[];
  /** Arrival times of requests received while a ban was in force (the ban answer itself excluded). */
  duringBan: number[];
  /** When the ban answer was sent and when the ban ends (whole seconds, as the header says). */
  banSentAt: number | undefined;
  banUntil: number | undefined;
  /** The most accepted requests in any sliding window of `windowMs`. */
  busiest(windowMs: number): number;
  close(): Promise<void>;
}

export async function startLimitedStore(options: LimitedStoreOptions = {}): Promise<LimitedStore> {
  const perSecond = options.perSecond ?? 20;
  const perMinute = options.perMinute ?? 800;
  let received = 0;
  const state: Pick<LimitedStore, 'accepted' | 'rejected' | 'duringBan' | 'banSentAt' | 'banUntil'> = {
    accepted: [],
    rejected: [],
    duringBan: [],
    banSentAt: undefined,
    banUntil: undefined,
  };
  const server: Server = createServer((request, response) => {
    request.resume();
    const now = Date.now();
    received++;
    const inLast = (windowMs: number) => {
      let count = 0;
      for (let index = state.accepted.length - 1; index >= 0; index--) {
        if ((state.accepted[index] as number) <= now - windowMs) break;
        count++;
      }
      return count;
    };
    const lastSecond = inLast(1_000);
    const lastMinute = inLast(60_000);
    const headers = (used: number) => ({
      'content-type': 'application/json',
      'Jumpseller-PerSecondRateLimit-Limit': String(perSecond),
      'Jumpseller-PerSecondRateLimit-Remaining': String(Math.max(0, perSecond - lastSecond - used)),
      'Jumpseller-PerMinuteRateLimit-Limit': String(perMinute),
      'Jumpseller-PerMinuteRateLimit-Remaining': String(Math.max(0, perMinute - lastMinute - used)),
    });
    if (state.banUntil !== undefined && now < state.banUntil) state.duringBan.push(now);
    if (options.banAt && received === options.banAt.request) {
      state.banSentAt = now;
      state.banUntil = Math.ceil((now + options.banAt.ms) / 1_000) * 1_000;
      response
        .writeHead(429, {
          ...headers(0),
          'Jumpseller-BannedByRateLimit-Reset': new Date(state.banUntil).toUTCString(),
        })
        .end('{"message":"Banned"}');
      return;
    }
    if (lastSecond >= perSecond || lastMinute >= perMinute) {
      state.rejected.push(now);
      response.writeHead(429, { ...headers(0), 'retry-after': '1' }).end('{"message":"Too Many Requests"}');
      return;
    }
    state.accepted.push(now);
    response.writeHead(200, headers(1)).end('[]');
  });
  const { origin, close } = await listenOnLoopback(server);
  return Object.assign(state, {
    url: `${origin}/v1`,
    busiest(windowMs: number) {
      let busiest = 0;
      let start = 0;
      for (let end = 0; end < state.accepted.length; end++) {
        while ((state.accepted[end] as number) - (state.accepted[start] as number) >= windowMs) start++;
        busiest = Math.max(busiest, end - start + 1);
      }
      return busiest;
    },
    close,
  });
}
