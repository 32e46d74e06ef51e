/**
 * Section 5, rate limit: the store client drains 400 list calls, all issued at once, against a local server
 * that enforces the store's limits (20 requests in any second, 800 in any minute, sliding) and answers 429 with
 * `Retry-After` beyond them. It sends the store's `Jumpseller-*RateLimit-*` headers like the real API.
 */
import { createServer, type Server } from 'node:http';
import { StoreClient } from '@agent-apis/store';
import { round } from './measure.ts';

const CALLS = 400;
const PER_SECOND = 20;
const PER_MINUTE = 800;

export interface RateLimitResult {
  calls: number;
  succeeded: number;
  seconds: number;
  /** Calls divided by the wall time from the first call to the last answer. */
  achievedPerSecond: number;
  /** `achievedPerSecond` as a share of the 20/s limit. */
  shareOfLimit: number;
  /** The most requests the server accepted in any one-second window. */
  busiestSecond: number;
  /** 429 answers the server sent. */
  tooManyRequests: number;
}

/** A server enforcing the store's two sliding windows; `accepted` holds the arrival times of accepted requests. */
function limitedStore(): { server: Server; accepted: number[]; rejected: () => number } {
  const accepted: number[] = [];
  let rejected = 0;
  const server = createServer((request, response) => {
    request.resume();
    const now = performance.now();
    const inLast = (windowMs: number) => accepted.filter((at) => at > now - windowMs);
    const lastSecond = inLast(1_000);
    const lastMinute = inLast(60_000);
    const headers = (usedSecond: number, usedMinute: number) => ({
      'Jumpseller-PerSecondRateLimit-Limit': String(PER_SECOND),
      'Jumpseller-PerSecondRateLimit-Remaining': String(Math.max(0, PER_SECOND - usedSecond)),
      'Jumpseller-PerMinuteRateLimit-Limit': String(PER_MINUTE),
      'Jumpseller-PerMinuteRateLimit-Remaining': String(Math.max(0, PER_MINUTE - usedMinute)),
    });
    if (lastSecond.length >= PER_SECOND || lastMinute.length >= PER_MINUTE) {
      rejected++;
      const full =
        lastSecond.length >= PER_SECOND
          ? { list: lastSecond, windowMs: 1_000 }
          : { list: lastMinute, windowMs: 60_000 };
      const waitMs = (full.list[0] ?? now) + full.windowMs - now;
      response
        .writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(Math.max(1, Math.ceil(waitMs / 1_000))),
          ...headers(lastSecond.length, lastMinute.length),
        })
        .end('{"message":"Too Many Requests"}');
      return;
    }
    accepted.push(now);
    response
      .writeHead(200, { 'content-type': 'application/json', ...headers(lastSecond.length + 1, lastMinute.length + 1) })
      .end('[]');
  });
  return { server, accepted, rejected: () => rejected };
}

/** The largest number of arrivals inside any window of `windowMs` (arrivals sorted ascending). */
function busiestWindow(arrivals: readonly number[], windowMs: number): number {
  let busiest = 0;
  let start = 0;
  for (let end = 0; end < arrivals.length; end++) {
    while ((arrivals[end] as number) - (arrivals[start] as number) >= windowMs) start++;
    busiest = Math.max(busiest, end - start + 1);
  }
  return busiest;
}

export async function measureRateLimit(): Promise<RateLimitResult> {
  const { server, accepted, rejected } = limitedStore();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const address = server.address();
    if (typeof address !== 'object' || !address) throw new Error('no address');
    // Credentials unique to this run, so the limiter (shared per base URL and credentials) starts empty.
    const store = new StoreClient({
      baseUrl: `http://127.0.0.1:${address.port}/v1`,
      login: `bench-${process.pid}`,
      authToken: 'bench-rate-limit-token',
    });
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: CALLS }, () => store.api.listProducts({ query: { limit: 50, page: 1 } })),
    );
    const seconds = (performance.now() - started) / 1_000;
    const achievedPerSecond = CALLS / seconds;
    return {
      calls: CALLS,
      succeeded: outcomes.filter((outcome) => outcome.status === 'fulfilled').length,
      seconds: round(seconds, 2),
      achievedPerSecond: round(achievedPerSecond, 2),
      shareOfLimit: round(achievedPerSecond / PER_SECOND, 3),
      busiestSecond: busiestWindow(accepted, 1_000),
      tooManyRequests: rejected(),
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
