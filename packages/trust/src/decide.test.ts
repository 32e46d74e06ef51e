import { describe, expect, it } from 'vitest';
import type { RecommendedAction } from './gen/types.gen.js';
import { TrustClient, TrustDecision } from './index.js';
import { CANARY_KEY, decideFetch, decisionResult, sentBodies, T0 } from './test-support.js';

function clientWith(fetch: typeof globalThis.fetch): TrustClient {
  return new TrustClient({ apiKey: CANARY_KEY, fetch, cache: false });
}

const DEFAULT_CONTEXT = {
  interaction: { kind: 'fetch', mode: 'read_only', sensitivity: 'medium' },
  policy: { profile: 'balanced' },
};

describe('decide', () => {
  it('sends a bare domain with the defaults of the official SDKs', async () => {
    const fetch = decideFetch();
    const decision = await clientWith(fetch).decide('example.com');
    expect(await sentBodies(fetch)).toEqual([{ target: { type: 'domain', value: 'example.com' }, ...DEFAULT_CONTEXT }]);
    expect(decision).toBeInstanceOf(TrustDecision);
    expect(decision.result.target.value).toBe('example.com');
  });

  it.each([
    ['https://example.com/docs', 'url'],
    ['http://example.com', 'url'],
    ['HTTPS://EXAMPLE.COM', 'url'],
    ['example.com/docs', 'domain'],
    ['httpbin.org', 'domain'],
  ])('sends %s as a %s target', async (value, type) => {
    const fetch = decideFetch();
    await clientWith(fetch).decide(value);
    expect(await sentBodies(fetch)).toEqual([{ target: { type, value }, ...DEFAULT_CONTEXT }]);
  });

  it('fills the fields the shorthand context leaves out', async () => {
    const fetch = decideFetch();
    await clientWith(fetch).decide('example.com', {
      interaction: { kind: 'submit_credentials' },
      policy: { profile: 'strict' },
      options: { include_evidence: false },
    });
    expect(await sentBodies(fetch)).toEqual([
      {
        target: { type: 'domain', value: 'example.com' },
        interaction: { kind: 'submit_credentials', mode: 'read_only', sensitivity: 'medium' },
        policy: { profile: 'strict' },
        options: { include_evidence: false },
      },
    ]);
  });

  it('sends the full request form as given, filling only what is missing', async () => {
    const fetch = decideFetch();
    const client = clientWith(fetch);
    const full = {
      target: { type: 'url', value: 'https://shop.example.com/checkout' },
      interaction: { kind: 'initiate_payment', mode: 'transactional', sensitivity: 'critical' },
      policy: { profile: 'critical' },
      options: { include_evidence: true },
    } as const;
    await client.decide(full);
    await client.decide({ target: { type: 'domain', value: 'example.org' }, interaction: { mode: 'privileged' } });
    expect(await sentBodies(fetch)).toEqual([
      full,
      {
        target: { type: 'domain', value: 'example.org' },
        interaction: { kind: 'fetch', mode: 'privileged', sensitivity: 'medium' },
        policy: { profile: 'balanced' },
      },
    ]);
  });
});

describe('TrustDecision', () => {
  it.each<[RecommendedAction, boolean, boolean, boolean]>([
    ['proceed', true, false, false],
    ['proceed_with_caution', true, false, false],
    ['sandbox', false, false, false],
    ['escalate_to_human', false, false, true],
    ['deny', false, true, false],
  ])('%s: shouldFetch %s, isDenied %s, requiresHumanReview %s', (action, shouldFetch, isDenied, review) => {
    const decision = new TrustDecision(decisionResult({ action }));
    expect(decision).toMatchObject({ action, shouldFetch, isDenied, requiresHumanReview: review });
  });

  it('requires human review whenever the service flags it', () => {
    const decision = new TrustDecision(decisionResult({ action: 'sandbox', requiresHumanReview: true }));
    expect(decision.requiresHumanReview).toBe(true);
  });

  it('exposes the validity end as a Date, the reason codes, and the raw result as JSON', () => {
    const result = decisionResult({
      evaluatedAt: T0,
      ttlSeconds: 900,
      reasonCodes: ['BRAND_MISMATCH', 'NEWLY_REGISTERED_DOMAIN'],
    });
    const decision = new TrustDecision(result);
    expect(decision.validUntil).toEqual(new Date(T0 + 900_000));
    expect(decision.reasonCodes).toEqual(['BRAND_MISMATCH', 'NEWLY_REGISTERED_DOMAIN']);
    expect(JSON.parse(JSON.stringify(decision))).toEqual(result);
  });
});
