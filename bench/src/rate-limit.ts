/**
 * Section 5, rate limit: the store client drains 400 list calls, all issued at once, against a local server
 * that enforces the store's limits (20 requests in any second, 800 in any minute, sliding) and answers 429 with
 * `Retry-After` beyond them, with the store's `Jumpseller-*RateLimit-*` headers (`@agent-apis/test-utils/limited-store`).
 */
import { StoreClient } from '@agent-apis/store';
import { startLimitedStore } from '@agent-apis/test-utils/limited-store';
import { round } from './measure.ts';

const CALLS = 400;
const PER_SECOND = 20;

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

export async function measureRateLimit(): Promise<RateLimitResult> {
  const server = await startLimitedStore({ perSecond: PER_SECOND, perMinute: 800 });
  try {
    // Credentials unique to this run, so the limiter (shared per base URL and credentials) starts empty.
    const store = new StoreClient({
      baseUrl: server.url,
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
      busiestSecond: server.busiest(1_000),
      tooManyRequests: server.rejected.length,
    };
  } finally {
    await server.close();
  }
}
