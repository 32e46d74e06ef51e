import { inspect } from 'node:util';
import { onlyRequest, requestOf } from '@agent-apis/test-utils/fetch';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { DECIDE_ENUMS } from './decide-request.js';
import { operations } from './gen/operations.gen.js';
import type { DecideRequest, DecisionResult } from './gen/types.gen.js';
import { DecideBody } from './gen/zod/trust.zod.gen.js';
import {
  AgentApiError,
  APIConnectionError,
  APIConnectionTimeoutError,
  type ApiPromise,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  InvalidBaseUrlError,
  type Logger,
  MissingCredentialsError,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  TrustClient,
  type TrustClientOptions,
  type TrustDecision,
  TrustUnavailableError,
  type WithResponse,
} from './index.js';
import { CANARY_KEY, decideFetch, decisionResult, errorFetch, sentBodies, T0 } from './test-support.js';

const request: DecideRequest = { target: { type: 'domain', value: 'example.com' } };

function clientWith(fetch: typeof globalThis.fetch, options: TrustClientOptions = {}): TrustClient {
  return new TrustClient({ apiKey: CANARY_KEY, fetch, cache: false, ...options });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('configuration', () => {
  it('refuses to start without a key, naming the option and the environment variable', () => {
    vi.stubEnv('ENTROPY0_API_KEY', '');
    const attempt = () => new TrustClient({ fetch: decideFetch() });
    expect(attempt).toThrow(AgentApiError);
    expect(attempt).toThrow(MissingCredentialsError);
    expect(attempt).toThrow(/`apiKey`.*ENTROPY0_API_KEY/);
  });

  it('reads the key from ENTROPY0_API_KEY, and the apiKey option wins over it', async () => {
    vi.stubEnv('ENTROPY0_API_KEY', 'sk_ent0_from-environment');
    const fromEnv = decideFetch();
    await new TrustClient({ fetch: fromEnv }).decide('example.com');
    expect(onlyRequest(fromEnv).headers.get('x-api-key')).toBe('sk_ent0_from-environment');

    const fromOption = decideFetch();
    await clientWith(fromOption).decide('example.com');
    expect(onlyRequest(fromOption).headers.get('x-api-key')).toBe(CANARY_KEY);
  });

  it('sends the key as X-API-Key by default and as a bearer token with authScheme "bearer"', async () => {
    const apiKeyFetch = decideFetch();
    await clientWith(apiKeyFetch).decide('example.com');
    const apiKeyRequest = onlyRequest(apiKeyFetch);
    expect(apiKeyRequest.headers.get('x-api-key')).toBe(CANARY_KEY);
    expect(apiKeyRequest.headers.has('authorization')).toBe(false);

    const bearerFetch = decideFetch();
    await clientWith(bearerFetch, { authScheme: 'bearer' }).decide('example.com');
    const bearerRequest = onlyRequest(bearerFetch);
    expect(bearerRequest.headers.get('authorization')).toBe(`Bearer ${CANARY_KEY}`);
    expect(bearerRequest.headers.has('x-api-key')).toBe(false);
  });

  it('uses https://entropy0.ai/api unless TRUST_BASE_URL or the baseUrl option says otherwise', async () => {
    vi.stubEnv('TRUST_BASE_URL', '');
    const byDefault = decideFetch();
    await clientWith(byDefault).decide('example.com');
    expect(onlyRequest(byDefault).url).toBe('https://entropy0.ai/api/v1/decide');

    vi.stubEnv('TRUST_BASE_URL', 'https://trust.internal/api');
    const fromEnv = decideFetch();
    await clientWith(fromEnv).decide('example.com');
    expect(onlyRequest(fromEnv).url).toBe('https://trust.internal/api/v1/decide');

    const fromOption = decideFetch();
    const client = clientWith(fromOption, { baseUrl: 'http://localhost:4010' });
    await client.decide('example.com');
    expect(client.baseUrl).toBe('http://localhost:4010');
    expect(onlyRequest(fromOption).url).toBe('http://localhost:4010/v1/decide');
  });

  it('needs /api at the end of a real host base URL, and a 404 from a mock without it says to add it', async () => {
    expect(() => clientWith(decideFetch(), { baseUrl: 'https://entropy0.ai' })).toThrow(InvalidBaseUrlError);
    expect(() => clientWith(decideFetch(), { baseUrl: 'https://entropy0.ai' })).toThrow(
      'TrustClient baseUrl must end with /api (the API root), got https://entropy0.ai',
    );
    // A loopback mock may serve the spec's paths at its root, so only its 404s can tell.
    const notFound = vi.fn<typeof globalThis.fetch>(async () =>
      Response.json({ error: { code: 'not_found', message: 'no such endpoint' } }, { status: 404 }),
    );
    const error = await clientWith(notFound, { baseUrl: 'http://127.0.0.1:4012', maxRetries: 0 })
      .decide('example.com')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(
      /\(hint: the URL has no \/api; the API lives under it, so the base URL probably needs it: http:\/\/127\.0\.0\.1:4012\/api\)$/,
    );
  });

  it('adds defaultHeaders to every request', async () => {
    const fetch = decideFetch();
    await clientWith(fetch, { defaultHeaders: { 'x-agent-name': 'crawler-7' } }).decide('example.com');
    expect(onlyRequest(fetch).headers.get('x-agent-name')).toBe('crawler-7');
  });

  it('exposes every operation of the spec under api, each sent to its own method and path', async () => {
    const bodies = {
      decide: request,
      decideBatch: { requests: [request] },
      scoreDomain: { input: 'example.com' },
      scoreDomainBatch: { domains: ['example.com', 'example.org'] },
    };
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) =>
      requestOf(input, init).url.endsWith('/v1/decide') ? Response.json(decisionResult()) : Response.json({}),
    );
    const client = clientWith(fetch, { baseUrl: 'https://trust.test/api' });
    expect(Object.keys(client.api).sort()).toEqual(Object.keys(operations).sort());

    await client.api.decide({ body: bodies.decide });
    await client.api.decideBatch({ body: bodies.decideBatch });
    await client.api.scoreDomain({ body: bodies.scoreDomain });
    await client.api.scoreDomainBatch({ body: bodies.scoreDomainBatch });

    const sent = fetch.mock.calls.map(([input, init]) => requestOf(input, init));
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(
      Object.values(operations).map(({ method, path }) => `${method} https://trust.test/api${path}`),
    );
    expect(await sentBodies(fetch)).toEqual(Object.values(bodies));
  });

  it('gives up after the timeout', async () => {
    const hanging = vi.fn<typeof globalThis.fetch>(
      (input, init) =>
        new Promise((_, reject) => {
          requestOf(input, init).signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    const error = await clientWith(hanging, { timeout: 20 })
      .decide('example.com')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).timeoutMs).toBe(20);
  });
});

describe('errors', () => {
  it('turns 429 into RateLimitError with retryAfterMs, without retrying the POST', async () => {
    const fetch = errorFetch(429, { 'retry-after': '3' });
    const error = await clientWith(fetch, { maxRetries: 5 })
      .decide('example.com')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_000);
    expect((error as RateLimitError).operation).toBe('decide');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [409, ConflictError],
    [500, InternalServerError],
  ])('turns %i into %o, sent once', async (status, errorClass) => {
    const fetch = errorFetch(status);
    const error = await clientWith(fetch, { maxRetries: 5 })
      .decide('example.com')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ status, body: { error: { message: `failed with ${status}` } } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('validation before sending', () => {
  it.each([
    [{ target: 'example.com', interaction: { kind: 'teleport' } }, 'body.interaction.kind'],
    [{ target: 'example.com', interaction: { mode: 'root' } }, 'body.interaction.mode'],
    [{ target: 'example.com', interaction: { sensitivity: 'secret' } }, 'body.interaction.sensitivity'],
    [{ target: 'example.com', policy: { profile: 'yolo' } }, 'body.policy.profile'],
    [{ target: 'example.com', options: { include_evidence: 'yes' } }, 'body.options.include_evidence'],
    [{ target: { type: 'ip', value: '10.0.0.1' } }, 'body.target.type'],
    [{ target: { type: 'domain', value: ' ' } }, 'body.target.value'],
    [{ domain: 'example.com' }, 'body.domain'],
    [{ interaction: { kind: 'fetch' } }, 'body.target'],
  ])('refuses %j naming %s, and sends nothing', async (input, field) => {
    const fetch = decideFetch();
    const client = clientWith(fetch);
    const error = await client.decide(input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operation: 'decide', field });
    expect(String(error)).toContain(field);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('checks the body of the raw api.decide as well', async () => {
    const fetch = decideFetch();
    const body = { target: { type: 'domain', value: 'example.com' }, interaction: { kind: 'teleport' } };
    const error = await clientWith(fetch)
      .api.decide({ body: body as never })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RequestValidationError', field: 'body.interaction.kind' });
    expect((error as Error).message).toMatch(/must be one of "navigate", "fetch", .* got "teleport"/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('checks the same enum values as the spec', () => {
    const { target, interaction, policy } = DecideBody.shape;
    const interactionShape = interaction.unwrap().shape;
    expect(DECIDE_ENUMS).toEqual({
      targetType: target.shape.type.options,
      interactionKind: interactionShape.kind.unwrap().options,
      interactionMode: interactionShape.mode.unwrap().options,
      interactionSensitivity: interactionShape.sensitivity.unwrap().options,
      policyProfile: policy.unwrap().shape.profile.unwrap().options,
    });
  });
});

describe('response validation', () => {
  const malformed = decisionResult();
  (malformed.decision as { recommended_action: string }).recommended_action = 'explode';

  it('refuses a malformed decision with validateResponses: true', async () => {
    const client = clientWith(
      vi.fn(async () => Response.json(malformed)),
      { validateResponses: true },
    );
    const error = await client.api.decide({ body: request }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).operation).toBe('decide');
    expect((error as ResponseValidationError).issues[0]?.path).toBe('decision.recommended_action');
  });

  it('accepts a well-formed decision with validateResponses: true', async () => {
    const client = clientWith(decideFetch(), { validateResponses: true });
    expect((await client.decide('example.com')).action).toBe('proceed');
  });

  it('refuses a wrong-shaped decision with a typed error, not a TypeError, with validateResponses off', async () => {
    for (const body of [{}, { decision: null }, [], 'proceed', { ...decisionResult(), validity: {} }]) {
      const client = clientWith(vi.fn(async () => Response.json(body)));
      const error = await client.decide('example.com').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({ operation: 'decide' });
    }
    const guarded = await clientWith(vi.fn(async () => Response.json({ decision: {} })))
      .guard('https://example.com/')
      .catch((e: unknown) => e);
    expect(guarded).toBeInstanceOf(TrustUnavailableError);
  });

  /** A decision whose field at `group.field` holds `value`. */
  function decisionWith(group: 'decision' | 'uncertainty' | 'validity', field: string, value: unknown): unknown {
    const body = decisionResult({ action: 'deny' }) as unknown as Record<string, Record<string, unknown>>;
    return { ...body, [group]: { ...body[group], [field]: value } };
  }

  it.each<[string, 'decision' | 'uncertainty' | 'validity', string, unknown]>([
    ['reason_codes as a string', 'decision', 'reason_codes', 'MALWARE'],
    ['reason_codes as an object', 'decision', 'reason_codes', { 0: 'MALWARE', length: 1 }],
    ['reason_codes holding a number', 'decision', 'reason_codes', ['MALWARE', 7]],
    ['recommended_action as a number', 'decision', 'recommended_action', 3],
    ['requires_human_review as a string', 'uncertainty', 'requires_human_review', 'false'],
    ['valid_until as a number', 'validity', 'valid_until', 1_779_000_000],
  ])('refuses a decision with %s as a ResponseValidationError naming the field', async (_, group, field, value) => {
    const client = clientWith(vi.fn(async () => Response.json(decisionWith(group, field, value))));
    const error = await client.decide('example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ operation: 'decide', issues: [{ path: `${group}.${field}` }] });
    expect((error as Error).message).toContain(`${group}.${field}`);
  });

  it('makes guard fail closed with a typed error on a deny whose reason_codes is no array', async () => {
    const client = clientWith(vi.fn(async () => Response.json(decisionWith('decision', 'reason_codes', 'MALWARE'))));
    const error = await client.guard('https://x.example/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrustUnavailableError);
    expect((error as TrustUnavailableError).cause).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('decision.reason_codes');
  });

  it('passes the body through unchecked by default', async () => {
    const client = clientWith(vi.fn(async () => Response.json(malformed)));
    expect(await client.api.decide({ body: request })).toEqual(malformed);
  });
});

describe('credentials never leak', () => {
  /** A server that echoes the key back in its error body and headers. */
  const echoingFetch = (status: number) =>
    vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const { headers } = requestOf(input, init);
      const key = headers.get('x-api-key') ?? headers.get('authorization') ?? '';
      return Response.json(
        { error: { code: 'unauthorized', message: `key ${key} is not valid` } },
        { status, headers: { 'x-echo': key } },
      );
    });

  function recordingLogger(): { logger: Logger; lines: () => string } {
    const calls: unknown[][] = [];
    const record = (...args: unknown[]) => {
      calls.push(args);
    };
    const logger = { debug: record, info: record, warn: record, error: record };
    return { logger, lines: () => calls.map((args) => inspect(args, { depth: 10 })).join('\n') };
  }

  function expectNoCanary(value: unknown): void {
    expect(String(value)).not.toContain(CANARY_KEY);
    expect(JSON.stringify(value)).not.toContain(CANARY_KEY);
    expect(inspect(value, { depth: 10 })).not.toContain(CANARY_KEY);
  }

  it.each(['api-key', 'bearer'] as const)('keeps the %s credential out of errors and logs', async (authScheme) => {
    const { logger, lines } = recordingLogger();
    const client = clientWith(echoingFetch(401), { authScheme, logger, logLevel: 'debug' });

    const error = await client.decide('example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error)).toContain('[REDACTED]');
    expectNoCanary(error);

    const guarded = await client.guard('https://example.com/page').catch((e: unknown) => e);
    expect(guarded).toBeInstanceOf(TrustUnavailableError);
    expect((guarded as Error).cause).toBeInstanceOf(AuthenticationError);
    expectNoCanary(guarded);

    expect(lines()).toContain('decide');
    expect(lines()).not.toContain(CANARY_KEY);
  });

  it('keeps the credential out of connection errors', async () => {
    const failing = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError(`socket closed while sending ${CANARY_KEY}`);
    });
    const error = await clientWith(failing)
      .decide('example.com')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expectNoCanary(error);
  });

  it('logs at the level named by AGENT_APIS_LOG', async () => {
    vi.stubEnv('AGENT_APIS_LOG', 'debug');
    const { logger, lines } = recordingLogger();
    await clientWith(decideFetch(), { logger }).decide('example.com');
    expect(lines()).toContain('POST https://entropy0.ai/api/v1/decide');
  });
});

describe('one call surface', () => {
  it('decide and every api method return a promise with .withResponse() and .asResponse(), typed', async () => {
    const fetch = decideFetch();
    const client = clientWith(fetch, { cache: true, now: () => T0 });
    const call = client.decide('example.com');
    expectTypeOf(call).toEqualTypeOf<ApiPromise<TrustDecision>>();
    expectTypeOf(call.withResponse()).resolves.toEqualTypeOf<WithResponse<TrustDecision>>();
    expectTypeOf<ReturnType<TrustClient['api']['decide']>>().toEqualTypeOf<ApiPromise<DecisionResult>>();
    const { data, response } = await call.withResponse();
    expect(data.action).toBe((await call).action);
    expect(response.status).toBe(200);
    // A decision from the cache comes with the response it arrived with.
    expect((await client.decide('example.com').asResponse()).status).toBe(200);
    expect(fetch).toHaveBeenCalledTimes(1);
    const raw = await client.api.decide({ body: request }).withResponse();
    expect(raw.response.headers.get('content-type')).toMatch(/json/);
  });

  it('checks the decide body once per call, and refuses a bad one through the promise', async () => {
    const fetch = decideFetch();
    const client = clientWith(fetch);
    const call = client.decide({ target: { type: 'domain', value: '' } });
    await expect(call.withResponse()).rejects.toThrow(RequestValidationError);
    await expect(
      client.api.decide({ body: { target: { type: 'ip', value: 'x' } } as unknown as DecideRequest }).asResponse(),
    ).rejects.toThrow(RequestValidationError);
    expect(fetch).not.toHaveBeenCalled();
  });
});
