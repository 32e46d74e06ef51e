/**
 * The README's code blocks are the files in `examples/`. This checks that each block equals its file, and runs
 * every example against the package's own MSW handlers, checking what it sends and prints.
 */
import { expectReadmeToEmbedEveryExample, runExample as runExampleFile } from '@agent-apis/test-utils/readme';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDecideMockHandler, getScoreDomainMockHandler } from './gen/msw.gen.js';
import type { AppliedInteraction, DecideRequest } from './gen/types.gen.js';
import { CANARY_KEY, type DecisionFixture, decisionResult } from './test-support.js';

const packageRoot = new URL('../', import.meta.url);

/** Runs `examples/<name>.ts` with `handlers` answering its requests; returns the lines it printed. */
async function runExample(name: string, handlers: HttpHandler[] = []): Promise<string[]> {
  const server = handlers.length > 0 ? setupServer(...handlers) : undefined;
  server?.listen({ onUnhandledFrame: 'error' });
  try {
    return await runExampleFile(packageRoot, name);
  } finally {
    server?.close();
  }
}

/** The generated decide handler, answering with a decision that echoes the request; `received` collects requests. */
function decideHandler(fixtureFor: (body: DecideRequest) => DecisionFixture, received: Request[] = []): HttpHandler {
  return getDecideMockHandler(async ({ request }) => {
    received.push(request.clone());
    const body = (await request.json()) as DecideRequest;
    return decisionResult({
      target: body.target,
      interaction: body.interaction as AppliedInteraction,
      profile: body.policy?.profile,
      evaluatedAt: Date.now(),
      ...fixtureFor(body),
    });
  });
}

beforeEach(() => {
  vi.stubEnv('ENTROPY0_API_KEY', CANARY_KEY);
  vi.stubEnv('TRUST_BASE_URL', '');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('README', () => {
  it('embeds every example file verbatim, each once', async () => {
    await expectReadmeToEmbedEveryExample(packageRoot);
  });
});

describe('README examples', () => {
  it('quick-start: decides with the key from the environment', async () => {
    const received: Request[] = [];
    const printed = await runExample('quick-start', [
      decideHandler(() => ({ reasonCodes: ['LONG_OPERATIONAL_HISTORY', 'STRONG_BRAND_ALIGNMENT'] }), received),
    ]);
    expect(printed).toEqual(['proceed true LONG_OPERATIONAL_HISTORY STRONG_BRAND_ALIGNMENT']);
    expect(received[0]?.headers.get('x-api-key')).toBe(CANARY_KEY);
  });

  it('auth: sends the key as a bearer token', async () => {
    const received: Request[] = [];
    const printed = await runExample('auth', [decideHandler(() => ({}), received)]);
    expect(printed).toEqual(['proceed']);
    expect(received[0]?.headers.get('authorization')).toBe(`Bearer ${CANARY_KEY}`);
    expect(received[0]?.headers.has('x-api-key')).toBe(false);
  });

  it('errors: reports the wait a 429 asks for', async () => {
    const rateLimited = http.post('*/v1/decide', () =>
      HttpResponse.json(
        { error: { code: 'rate_limited', message: 'Too many requests' } },
        { status: 429, headers: { 'retry-after': '30' } },
      ),
    );
    expect(await runExample('errors', [rateLimited])).toEqual(['rate limited, retry in 30000 ms']);
  });

  it('timeouts: calls a raw operation with its own timeout', async () => {
    const printed = await runExample('timeouts', [getScoreDomainMockHandler({ input: 'github.com', trustScore: 82 })]);
    expect(printed).toEqual(['82']);
  });

  it('decide-context: sends the full form with defaults filled in', async () => {
    const received: Request[] = [];
    const validUntil = '2026-05-16T10:00:00.000Z';
    const printed = await runExample('decide-context', [
      decideHandler(() => ({ action: 'escalate_to_human', validUntil }), received),
    ]);
    expect(printed).toEqual([`ask a person first (escalate_to_human, valid until ${validUntil})`]);
    expect(await received[0]?.json()).toEqual({
      target: { type: 'domain', value: 'secure-payments-example.com' },
      interaction: { kind: 'submit_credentials', mode: 'transactional', sensitivity: 'medium' },
      policy: { profile: 'strict' },
    });
  });

  it('caching: answers the second decide from the cache', async () => {
    const received: Request[] = [];
    const printed = await runExample('caching', [decideHandler(() => ({ ttlSeconds: 600 }), received)]);
    expect(received).toHaveLength(1);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^true \d{4}-\d\d-\d\dT/);
  });

  it('guard: lets an escalated decision through once the handler approves', async () => {
    const printed = await runExample('guard', [
      decideHandler(() => ({ action: 'escalate_to_human', reasonCodes: ['NEWLY_REGISTERED_DOMAIN'] })),
    ]);
    expect(printed).toEqual(['approved by a reviewer despite NEWLY_REGISTERED_DOMAIN', 'escalate_to_human']);
  });

  it('guarded-fetch: fetches the allowed page, withholds the sandboxed one and never fetches the denied one', async () => {
    const printed = await runExample('guarded-fetch', [
      decideHandler((body) =>
        body.target.value === 'githvb.com'
          ? { action: 'deny', reasonCodes: ['BRAND_MISMATCH', 'NEWLY_REGISTERED_DOMAIN'] }
          : body.target.value === 'paste.example.net'
            ? { action: 'sandbox', reasonCodes: ['HOSTING_PATTERN_SUSPICIOUS'] }
            : { action: 'proceed' },
      ),
    ]);
    // The example's own fetch names the host it fetched: only github.com's page was fetched.
    expect(printed).toEqual([
      'https://github.com/about 200 page of github.com',
      'https://paste.example.net/raw/1 200 withheld: HOSTING_PATTERN_SUSPICIOUS',
      'https://githvb.com/login denied: BRAND_MISMATCH, NEWLY_REGISTERED_DOMAIN',
    ]);
  });

  it('testing: runs against the generated MSW handlers on its own', async () => {
    expect(await runExample('testing')).toEqual(['true']);
  });
});

describeWithRedis('README fleet example', (redis) => {
  it('fleet: two workers asking at once get one scan through a real Redis', async () => {
    vi.stubEnv('REDIS_URL', redis.server.url);
    const received: Request[] = [];
    const printed = await runExample('fleet', [decideHandler(() => ({}), received)]);
    expect(printed).toEqual(['proceed true']);
    expect(received).toHaveLength(1);
  });
});
