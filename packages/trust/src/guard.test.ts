import { requestOf } from '@agent-apis/test-utils/fetch';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { RecommendedAction } from './gen/types.gen.js';
import {
  APIUserAbortError,
  InternalServerError,
  RequestValidationError,
  TrustActionError,
  TrustClient,
  TrustDecision,
  TrustDeniedError,
  TrustEscalationRequiredError,
  TrustSandboxRequiredError,
  TrustUnavailableError,
} from './index.js';
import { CANARY_KEY, decideFetch, errorFetch, sentBodies } from './test-support.js';

const URL_TO_FETCH = 'https://docs.example.com/guide?page=2';

function setup(action: RecommendedAction | (string & {})) {
  const trustFetch = decideFetch(() => ({ action: action as RecommendedAction, reasonCodes: ['BRAND_MISMATCH'] }));
  const client = new TrustClient({ apiKey: CANARY_KEY, fetch: trustFetch });
  const target = vi.fn<typeof globalThis.fetch>(async () => new Response('page body'));
  return { client, trustFetch, target, guarded: client.guardedFetch(target) };
}

describe('guard', () => {
  it.each(['not a url', '/relative/path', ''])(
    'refuses %j as a typed error naming the url argument, sending nothing',
    async (url) => {
      const { client, trustFetch } = setup('proceed');
      const error = await client.guard(url).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ operation: 'guard', field: 'url' });
      expect((error as Error).message).toMatch(
        /^Invalid request for guard: url must be an absolute URL such as https:\/\/example\.com\/page, got "/,
      );
      expect(trustFetch).not.toHaveBeenCalled();
    },
  );

  it('decides on the URL host with the given interaction and policy', async () => {
    const { client, trustFetch } = setup('proceed');
    await client.guard(URL_TO_FETCH, { interaction: { kind: 'download_file' }, policy: { profile: 'strict' } });
    expect(await sentBodies(trustFetch)).toEqual([
      {
        target: { type: 'domain', value: 'docs.example.com' },
        interaction: { kind: 'download_file', mode: 'read_only', sensitivity: 'medium' },
        policy: { profile: 'strict' },
      },
    ]);
  });

  it.each(['proceed', 'proceed_with_caution'] as const)('lets %s through and runs the fetch', async (action) => {
    const { client, target, guarded } = setup(action);
    const decision = await client.guard(URL_TO_FETCH);
    expect(decision).toBeInstanceOf(TrustDecision);
    expect(decision?.action).toBe(action);

    const response = await guarded(URL_TO_FETCH, { headers: { accept: 'text/html' } });
    expect(await response.text()).toBe('page body');
    expect(target).toHaveBeenCalledTimes(1);
    const sent = target.mock.calls[0]?.[0] as Request;
    expect(sent.url).toBe(URL_TO_FETCH);
    expect(sent.headers.get('accept')).toBe('text/html');
  });

  it('throws TrustDeniedError carrying the decision for deny, and never contacts the target', async () => {
    const { client, target, guarded } = setup('deny');
    const error = await guarded(URL_TO_FETCH).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrustDeniedError);
    expect(error).toBeInstanceOf(TrustActionError);
    expect((error as TrustDeniedError).decision.isDenied).toBe(true);
    expect((error as TrustDeniedError).url).toBe(URL_TO_FETCH);
    expect((error as Error).message).toContain('deny: BRAND_MISMATCH');
    await expect(client.guard(URL_TO_FETCH)).rejects.toBeInstanceOf(TrustDeniedError);
    expect(target).not.toHaveBeenCalled();
  });

  it('treats an action it does not know as deny', async () => {
    const { target, guarded } = setup('quarantine');
    await expect(guarded(URL_TO_FETCH)).rejects.toBeInstanceOf(TrustDeniedError);
    expect(target).not.toHaveBeenCalled();
  });

  describe.each([
    ['sandbox', 'onSandbox', TrustSandboxRequiredError],
    ['escalate_to_human', 'onEscalate', TrustEscalationRequiredError],
  ] as const)('%s', (action, handlerName, requiredError) => {
    it(`throws ${requiredError.name} without ${handlerName}, and never contacts the target`, async () => {
      const { client, target, guarded } = setup(action);
      const error = await guarded(URL_TO_FETCH).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(requiredError);
      expect((error as TrustActionError).decision.action).toBe(action);
      await expect(client.guard(URL_TO_FETCH)).rejects.toBeInstanceOf(requiredError);
      expect(target).not.toHaveBeenCalled();
    });

    it(`answers guardedFetch with ${handlerName} in place of the target`, async () => {
      const trustFetch = decideFetch(() => ({ action }));
      const client = new TrustClient({ apiKey: CANARY_KEY, fetch: trustFetch });
      const target = vi.fn<typeof globalThis.fetch>();
      const handler = vi.fn(
        async (_decision: TrustDecision, request: Request) => new Response(`handled ${request.url}`),
      );
      const guarded = client.guardedFetch(target, { [handlerName]: handler });

      const response = await guarded(URL_TO_FETCH);
      expect(await response.text()).toBe(`handled ${URL_TO_FETCH}`);
      expect(handler.mock.calls[0]?.[0].action).toBe(action);
      expect(target).not.toHaveBeenCalled();
    });

    it(`resolves guard once ${handlerName} returns, and rejects when it throws`, async () => {
      const { client } = setup(action);
      const approve = vi.fn();
      const decision = await client.guard(URL_TO_FETCH, { [handlerName]: approve });
      expect(decision?.action).toBe(action);
      expect(approve).toHaveBeenCalledWith(decision, new URL(URL_TO_FETCH));

      const refuse = () => {
        throw new Error('a person said no');
      };
      await expect(client.guard(URL_TO_FETCH, { [handlerName]: refuse })).rejects.toThrow('a person said no');
    });
  });

  it('fails closed with TrustUnavailableError when the trust service errors', async () => {
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch: errorFetch(500) });
    const target = vi.fn<typeof globalThis.fetch>();
    const error = await client
      .guardedFetch(target)(URL_TO_FETCH)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrustUnavailableError);
    expect((error as Error).cause).toBeInstanceOf(InternalServerError);
    expect((error as TrustUnavailableError).url).toBe(URL_TO_FETCH);
    await expect(client.guard(URL_TO_FETCH)).rejects.toBeInstanceOf(TrustUnavailableError);
    expect(target).not.toHaveBeenCalled();
  });

  it('fails closed when the trust service cannot be reached', async () => {
    const unreachable = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('getaddrinfo ENOTFOUND entropy0.ai');
    });
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch: unreachable });
    const target = vi.fn<typeof globalThis.fetch>();
    await expect(client.guardedFetch(target)(URL_TO_FETCH)).rejects.toThrow(/ENOTFOUND/);
    await expect(client.guardedFetch(target)(URL_TO_FETCH)).rejects.toBeInstanceOf(TrustUnavailableError);
    expect(target).not.toHaveBeenCalled();
  });

  it('fails open when asked to', async () => {
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch: errorFetch(503) });
    const target = vi.fn<typeof globalThis.fetch>(async () => new Response('page body'));
    const response = await client.guardedFetch(target, { failOpen: true })(URL_TO_FETCH);
    expect(await response.text()).toBe('page body');
    expect(target).toHaveBeenCalledTimes(1);
    await expect(client.guard(URL_TO_FETCH, { failOpen: true })).resolves.toBeUndefined();
  });

  it('never fails open on invalid input', async () => {
    const { client, trustFetch, target } = setup('proceed');
    const guarded = client.guardedFetch(target, { failOpen: true, interaction: { kind: 'teleport' as never } });
    await expect(guarded(URL_TO_FETCH)).rejects.toBeInstanceOf(RequestValidationError);
    expect(trustFetch).not.toHaveBeenCalled();
    expect(target).not.toHaveBeenCalled();
  });

  it('masks credentials in the target URL it reports', async () => {
    const { guarded } = setup('deny');
    const error = await guarded('https://docs.example.com/feed?token=target-site-secret-42').catch(
      (e: unknown) => e as TrustDeniedError,
    );
    expect(error.url).not.toContain('target-site-secret-42');
    expect(String(error)).not.toContain('target-site-secret-42');
  });
});

describe('guardedFetch and redirects', () => {
  it('decides on every host of a redirect chain, so an approved host cannot bounce the agent to a denied one', async () => {
    const trustFetch = decideFetch((request) =>
      request.target.value === 'evil.example.net' ? { action: 'deny' } : { action: 'proceed' },
    );
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch: trustFetch });
    const target = vi.fn<typeof globalThis.fetch>(async (input) => {
      const url = (input as Request).url;
      return url.startsWith('https://docs.example.com/')
        ? new Response(null, { status: 302, headers: { location: 'https://evil.example.net/payload' } })
        : new Response('payload');
    });
    const guarded = client.guardedFetch(target);
    await expect(guarded('https://docs.example.com/start')).rejects.toBeInstanceOf(TrustDeniedError);
    expect(target.mock.calls.map(([input]) => (input as Request).url)).toEqual(['https://docs.example.com/start']);
  });

  it('follows an approved chain hop by hop, dropping credentials when the origin changes', async () => {
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch: decideFetch(() => ({ action: 'proceed' })) });
    const target = vi.fn<typeof globalThis.fetch>(async (input) =>
      (input as Request).url === 'https://docs.example.com/a'
        ? new Response(null, { status: 301, headers: { location: 'https://cdn.example.org/b' } })
        : new Response('b'),
    );
    const response = await client.guardedFetch(target)('https://docs.example.com/a', {
      headers: { authorization: 'Bearer page-token' },
    });
    expect(await response.text()).toBe('b');
    const second = target.mock.calls[1]?.[0] as Request;
    expect(second.url).toBe('https://cdn.example.org/b');
    expect(second.headers.has('authorization')).toBe(false);
  });

  /** Every kind of credential header an agent may send, and one header that carries none. */
  const AGENT_HEADERS = {
    authorization: 'Bearer page-token-1234',
    'proxy-authorization': 'Basic cHJveHk6cHc=',
    cookie: 'session=agent-session-1234',
    'x-api-key': 'agent-key-1234',
    'x-auth-token': 'agent-token-1234',
    'x-session-secret': 'agent-secret-1234',
    'x-trace': 'trace-1',
  };
  const CREDENTIAL_NAMES = Object.keys(AGENT_HEADERS).filter((name) => name !== 'x-trace');

  /** A guarded fetch whose first hop redirects to `location`; returns the requests the target saw. */
  async function followOneRedirect(location: string): Promise<Request[]> {
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch: decideFetch(() => ({ action: 'proceed' })) });
    const target = vi.fn<typeof globalThis.fetch>(async (input) =>
      (input as Request).url === 'https://api.example.com/data'
        ? new Response(null, { status: 302, headers: { location } })
        : new Response('ok'),
    );
    const response = await client.guardedFetch(target)('https://api.example.com/data', { headers: AGENT_HEADERS });
    expect(await response.text()).toBe('ok');
    return target.mock.calls.map(([input]) => input as Request);
  }

  it('drops every credential header on a redirect to another origin, keeping the others', async () => {
    const [first, hop] = await followOneRedirect('https://elsewhere.example/landing');
    expect(CREDENTIAL_NAMES.filter((name) => first?.headers.has(name))).toEqual(CREDENTIAL_NAMES);
    expect(hop?.url).toBe('https://elsewhere.example/landing');
    expect(CREDENTIAL_NAMES.filter((name) => hop?.headers.has(name))).toEqual([]);
    expect(hop?.headers.get('x-trace')).toBe('trace-1');
  });

  it('drops credential headers when a redirect changes only the scheme or port', async () => {
    for (const location of ['http://api.example.com/data2', 'https://api.example.com:8443/data2']) {
      const [, hop] = await followOneRedirect(location);
      expect(hop?.url).toBe(location);
      expect(CREDENTIAL_NAMES.filter((name) => hop?.headers.has(name))).toEqual([]);
    }
  });

  it('keeps every header on a redirect within the origin', async () => {
    const [, hop] = await followOneRedirect('/data2');
    expect(hop?.url).toBe('https://api.example.com/data2');
    expect(Object.fromEntries(hop?.headers ?? [])).toEqual(AGENT_HEADERS);
  });
});

describe('per-call options and types', () => {
  it('sends per-call headers with decide and guard', async () => {
    const { client, trustFetch } = setup('proceed');
    await client.decide('example.com', undefined, { headers: { 'x-trace': 'one' } });
    await client.guard('https://other.example.org/', { headers: { 'x-trace': 'two' } });
    const traces = trustFetch.mock.calls.map(([input, init]) => requestOf(input, init).headers.get('x-trace'));
    expect(traces).toEqual(['one', 'two']);
  });

  it('stops waiting for a decision when the signal aborts, with APIUserAbortError', async () => {
    const never = vi.fn<typeof globalThis.fetch>(() => new Promise<Response>(() => {}));
    const client = new TrustClient({ apiKey: CANARY_KEY, fetch: never });
    const controller = new AbortController();
    const pending = client.guard(URL_TO_FETCH, { signal: controller.signal, failOpen: true });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('types guard() without undefined unless failOpen may be true', () => {
    const { client } = setup('proceed');
    expectTypeOf(client.guard(URL_TO_FETCH)).resolves.toEqualTypeOf<TrustDecision>();
    expectTypeOf(client.guard(URL_TO_FETCH, { failOpen: false })).resolves.toEqualTypeOf<TrustDecision>();
    expectTypeOf(client.guard(URL_TO_FETCH, { failOpen: true })).resolves.toEqualTypeOf<TrustDecision | undefined>();
    const failOpen: boolean = Math.random() > 2;
    expectTypeOf(client.guard(URL_TO_FETCH, { failOpen })).resolves.toEqualTypeOf<TrustDecision | undefined>();
  });
});
