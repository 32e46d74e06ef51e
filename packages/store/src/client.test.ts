import { inspect } from 'node:util';
import { resetSharedRateLimiters } from '@agent-apis/core/call';
import { fetchStub, jsonResponse, sentRequests } from '@agent-apis/test-utils/fetch';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { operations } from './gen/operations.gen.js';
import {
  AgentApiError,
  APIConnectionTimeoutError,
  InvalidBaseUrlError,
  type Logger,
  MissingCredentialsError,
  NotFoundError,
  type Paginator,
  type Product,
  type ProductFields,
  RequestValidationError,
  ResponseValidationError,
  StoreClient,
  type StoreClientOptions,
  UnprocessableEntityError,
} from './index.js';
import { BASE_URL, BASIC, BEARER, CANARY } from './test-support.js';

const PRODUCT = { product: { id: 42, name: 'Mug' } };

function storeClient(options: StoreClientOptions = {}) {
  const fetch = options.fetch ?? fetchStub(() => jsonResponse(PRODUCT));
  const client = new StoreClient({ baseUrl: BASE_URL, rateLimit: false, ...BASIC, ...options, fetch });
  return { client, fetch: fetch as ReturnType<typeof fetchStub> };
}

/** Runs `call`, expecting it to reject, and returns the error. */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function recordingLogger(): Logger & { text(): string } {
  const lines: unknown[][] = [];
  const record = (...line: unknown[]) => {
    lines.push(line);
  };
  return { debug: record, info: record, warn: record, error: record, text: () => inspect(lines, { depth: 10 }) };
}

/** Every way an error can be shown or serialised. */
function renderings(error: unknown): string[] {
  return [String(error), JSON.stringify(error), inspect(error, { depth: 10 })];
}

beforeEach(() => {
  vi.unstubAllEnvs();
  for (const name of ['STORE_LOGIN', 'STORE_AUTH_TOKEN', 'STORE_ACCESS_TOKEN', 'STORE_BASE_URL', 'AGENT_APIS_LOG']) {
    vi.stubEnv(name, '');
  }
  resetSharedRateLimiters();
});
afterEach(() => vi.unstubAllEnvs());

describe('StoreClient.api', () => {
  it('exposes every operation of the spec (179)', () => {
    const { client } = storeClient();
    expect(Object.keys(client.api).sort()).toEqual(Object.keys(operations).sort());
    expect(Object.keys(client.api)).toHaveLength(179);
  });

  it('binds the operations on the first read of api, not in the constructor, and keeps them', () => {
    const { client } = storeClient();
    expect(Object.getOwnPropertyDescriptor(client, 'api')).toMatchObject({
      enumerable: true,
      get: expect.any(Function),
    });
    const api = client.api;
    expect(client.api).toBe(api);
    expect(Object.getOwnPropertyDescriptor(client, 'api')).toMatchObject({ value: api, enumerable: true });
    expect(Object.keys(client)).toContain('api');
  });

  it('sends getProduct to the base URL and resolves to the parsed body', async () => {
    const { client, fetch } = storeClient();
    await expect(client.api.getProduct({ path: { id: 42 } })).resolves.toEqual(PRODUCT);
    const [request] = sentRequests(fetch);
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(`${BASE_URL}/products/42.json`);
  });

  it('sends defaultHeaders with every request', async () => {
    const { client, fetch } = storeClient({ defaultHeaders: { 'x-app': 'inventory-sync' } });
    await client.api.getStoreInfo();
    expect(sentRequests(fetch)[0]?.headers.get('x-app')).toBe('inventory-sync');
  });
});

describe('types', () => {
  it('resolves operations to their success body, never undefined; resources list records out of their envelope', () => {
    const { client } = storeClient();
    expectTypeOf(client.api.getProduct).returns.resolves.toEqualTypeOf<Product>();
    expectTypeOf(client.api.listProducts).returns.resolves.toEqualTypeOf<Product[]>();
    expectTypeOf(client.products.list).returns.toEqualTypeOf<Paginator<ProductFields[], ProductFields>>();
    expectTypeOf(client.api.listProducts).parameter(0).not.toHaveProperty('throwOnError');
    expectTypeOf(client.api.listProducts).parameter(0).not.toHaveProperty('auth');
  });
});

describe('base URL', () => {
  it('defaults to the spec server, yields to STORE_BASE_URL, and the option wins over both', () => {
    expect(new StoreClient(BASIC).baseUrl).toBe('https://api.jumpseller.com/v1');
    vi.stubEnv('STORE_BASE_URL', 'https://staging.store.test/v1/');
    expect(new StoreClient(BASIC).baseUrl).toBe('https://staging.store.test/v1');
    expect(new StoreClient({ ...BASIC, baseUrl: BASE_URL }).baseUrl).toBe(BASE_URL);
  });
});

describe('authentication', () => {
  it('sends HTTP Basic login:authToken in the Authorization header and nothing in the URL', async () => {
    const { client, fetch } = storeClient(BASIC);
    await client.api.listProducts({ query: { limit: 5 } });
    const [request] = sentRequests(fetch);
    expect(client.authScheme).toBe('basic');
    expect(request?.headers.get('authorization')).toBe(`Basic ${btoa(`${CANARY.login}:${CANARY.authToken}`)}`);
    const url = new URL(request?.url ?? '');
    expect([...url.searchParams.keys()]).toEqual(['limit']);
    expect(request?.url).not.toContain(CANARY.login);
    expect(request?.url).not.toContain(CANARY.authToken);
  });

  it('sends an OAuth2 access token as a bearer token and nothing in the URL', async () => {
    const { client, fetch } = storeClient({ login: undefined, authToken: undefined, ...BEARER });
    await client.api.getStoreInfo();
    const [request] = sentRequests(fetch);
    expect(client.authScheme).toBe('bearer');
    expect(request?.headers.get('authorization')).toBe(`Bearer ${CANARY.accessToken}`);
    expect(new URL(request?.url ?? '').search).toBe('');
  });

  it('falls back to STORE_LOGIN + STORE_AUTH_TOKEN, then STORE_ACCESS_TOKEN', async () => {
    const fetch = fetchStub(() => jsonResponse({}));
    vi.stubEnv('STORE_LOGIN', CANARY.login);
    vi.stubEnv('STORE_AUTH_TOKEN', CANARY.authToken);
    await new StoreClient({ baseUrl: BASE_URL, fetch, rateLimit: false }).api.getStoreInfo();
    vi.unstubAllEnvs();
    vi.stubEnv('STORE_ACCESS_TOKEN', CANARY.accessToken);
    await new StoreClient({ baseUrl: BASE_URL, fetch, rateLimit: false }).api.getStoreInfo();
    const [basic, bearer] = sentRequests(fetch);
    expect(basic?.headers.get('authorization')).toBe(`Basic ${btoa(`${CANARY.login}:${CANARY.authToken}`)}`);
    expect(bearer?.headers.get('authorization')).toBe(`Bearer ${CANARY.accessToken}`);
  });

  it('prefers credentials given as options over the environment', () => {
    vi.stubEnv('STORE_LOGIN', 'env-login-value');
    vi.stubEnv('STORE_AUTH_TOKEN', 'env-token-value');
    expect(new StoreClient({ ...BEARER, rateLimit: false }).authScheme).toBe('bearer');
  });

  it('refuses to start without credentials, naming the options and environment variables', () => {
    const error = (() => {
      try {
        new StoreClient();
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error).toBeInstanceOf(MissingCredentialsError);
    for (const name of ['login', 'authToken', 'accessToken', 'STORE_LOGIN', 'STORE_AUTH_TOKEN', 'STORE_ACCESS_TOKEN']) {
      expect(String(error)).toContain(name);
    }
  });

  it('refuses half a Basic pair and two schemes at once, without echoing the values', () => {
    expect(() => new StoreClient({ login: CANARY.login })).toThrow(/needs authToken too/);
    vi.stubEnv('STORE_AUTH_TOKEN', CANARY.authToken);
    expect(() => new StoreClient()).toThrow(/needs STORE_LOGIN too/);
    for (const options of [
      { ...BASIC, ...BEARER },
      { login: CANARY.login, ...BEARER },
    ]) {
      const error = (() => {
        try {
          new StoreClient(options);
        } catch (caught) {
          return caught;
        }
      })();
      expect(String(error)).toMatch(/one authentication scheme/);
      for (const text of renderings(error)) {
        for (const canary of Object.values(CANARY)) expect(text).not.toContain(canary);
      }
    }
  });
});

describe('redaction', () => {
  /** A server that answers 401 quoting the Authorization header and every credential value it knows of. */
  const echoingServer = (values: readonly string[]) =>
    fetchStub((request) =>
      jsonResponse(
        { message: `Invalid credentials: ${request.headers.get('authorization')}`, received: values },
        { status: 401 },
      ),
    );

  it.each([
    ['HTTP Basic', BASIC, [CANARY.login, CANARY.authToken, btoa(`${CANARY.login}:${CANARY.authToken}`)]],
    ['OAuth2 bearer', BEARER, [CANARY.accessToken]],
  ])(
    'keeps %s credentials out of errors and logs, even when the server echoes them',
    async (_scheme, credentials, values) => {
      const logger = recordingLogger();
      const client = new StoreClient({
        ...credentials,
        baseUrl: BASE_URL,
        fetch: echoingServer(values),
        logger,
        logLevel: 'debug',
        rateLimit: false,
      });
      const error = await failure(() => client.api.getProduct({ path: { id: 1 } }));
      expect(error).toMatchObject({ name: 'AuthenticationError', status: 401 });
      expect(logger.text()).toContain('getProduct');
      for (const text of [...renderings(error), logger.text()]) {
        for (const value of values) expect(text).not.toContain(value);
      }
    },
  );
});

describe('errors', () => {
  it('turns 404 into NotFoundError and 422 into UnprocessableEntityError, naming the operation', async () => {
    const fetch = fetchStub((request) =>
      request.method === 'GET'
        ? jsonResponse({ message: 'Product not found' }, { status: 404 })
        : jsonResponse({ errors: ['name blank'] }, { status: 422 }),
    );
    const { client } = storeClient({ fetch });
    const notFound = await failure(() => client.api.getProduct({ path: { id: 7 } }));
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, operation: 'getProduct' });
    const rejected = await failure(() =>
      client.api.updateProduct({ path: { id: 7 }, body: { product: { name: '', price: 5 } } }),
    );
    expect(rejected).toBeInstanceOf(UnprocessableEntityError);
    expect(rejected).toMatchObject({ status: 422, operation: 'updateProduct', body: { errors: ['name blank'] } });
  });
});

describe('retries and timeouts', () => {
  const unavailableOnce = () =>
    fetchStub((_request, index) =>
      index === 0 ? jsonResponse({}, { status: 503, headers: { 'retry-after-ms': '0' } }) : jsonResponse(PRODUCT),
    );

  it('retries a GET after 503', async () => {
    const { client, fetch } = storeClient({ fetch: unavailableOnce() });
    await expect(client.api.getProduct({ path: { id: 42 } })).resolves.toEqual(PRODUCT);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('never retries a POST: createProduct is sent once', async () => {
    const { client, fetch } = storeClient({ fetch: unavailableOnce() });
    const error = await failure(() => client.api.createProduct({ body: { product: { name: 'Mug', price: 5 } } }));
    expect(error).toMatchObject({ name: 'InternalServerError', status: 503, operation: 'createProduct' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('honours maxRetries from the options and per call', async () => {
    const { client, fetch } = storeClient({ fetch: unavailableOnce(), maxRetries: 0 });
    await expect(client.api.getProduct({ path: { id: 42 } })).rejects.toMatchObject({ status: 503 });
    expect(fetch).toHaveBeenCalledTimes(1);
    const perCall = storeClient({ fetch: unavailableOnce() });
    await expect(perCall.client.api.getProduct({ path: { id: 42 }, maxRetries: 0 })).rejects.toMatchObject({
      status: 503,
    });
    expect(perCall.fetch).toHaveBeenCalledTimes(1);
  });

  it('gives up on a request that outlasts the timeout', async () => {
    const hanging = fetchStub(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
    );
    const { client } = storeClient({ fetch: hanging, timeout: 20, maxRetries: 0 });
    const error = await failure(() => client.api.getProduct({ path: { id: 42 } }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 20 });
  });
});

describe('input validation', () => {
  it('refuses limit 101 naming query.limit, without sending anything', async () => {
    const { client, fetch } = storeClient();
    const error = await failure(() => client.api.listProducts({ query: { limit: 101 } }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operation: 'listProducts', field: 'query.limit' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a missing path id naming path.id', async () => {
    const { client, fetch } = storeClient();
    const error = await failure(() => client.api.getProduct({ path: {} as { id: number } }));
    expect(error).toMatchObject({ name: 'RequestValidationError', field: 'path.id', reason: 'is required' });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('response validation', () => {
  const malformed = { product: { id: 'forty-two', name: 'Mug' } };

  it('with validateResponses, refuses a body that breaks the schema', async () => {
    const { client } = storeClient({ fetch: fetchStub(() => jsonResponse(malformed)), validateResponses: true });
    const error = await failure(() => client.api.getProduct({ path: { id: 42 } }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ operation: 'getProduct', issues: [expect.objectContaining({ path: 'product.id' })] });
  });

  it('with validateResponses, accepts a body that fits the schema', async () => {
    const { client } = storeClient({ validateResponses: true });
    await expect(client.api.getProduct({ path: { id: 42 } })).resolves.toEqual(PRODUCT);
  });

  it('does not validate by default', async () => {
    const { client } = storeClient({ fetch: fetchStub(() => jsonResponse(malformed)) });
    await expect(client.api.getProduct({ path: { id: 42 } })).resolves.toEqual(malformed);
  });
});

describe('logging', () => {
  it('logs nothing by default and follows AGENT_APIS_LOG', async () => {
    const quiet = recordingLogger();
    await storeClient({ logger: quiet }).client.api.getStoreInfo();
    expect(quiet.text()).toBe('[]');
    vi.stubEnv('AGENT_APIS_LOG', 'debug');
    const verbose = recordingLogger();
    await storeClient({ logger: verbose }).client.api.getStoreInfo();
    expect(verbose.text()).toContain('getStoreInfo');
  });
});

describe('construction checks', () => {
  it('refuses a base URL that does not end in /v1, has no scheme or carries credentials, before any request', () => {
    expect(() => new StoreClient({ ...BEARER, baseUrl: 'https://store.test/api' })).toThrow(InvalidBaseUrlError);
    expect(() => new StoreClient({ ...BEARER, baseUrl: 'store.test/v1' })).toThrow(InvalidBaseUrlError);
    expect(() => new StoreClient({ ...BEARER, baseUrl: 'https://me:pw-secret-9@store.test/v1' })).toThrow(
      /must not carry credentials/,
    );
  });

  it('refuses a token with a line break, naming the option but not the value', () => {
    const create = () => new StoreClient({ baseUrl: BASE_URL, accessToken: 'tok-abc\r\nX-Injected: 1' });
    expect(create).toThrow(/accessToken contains a line break/);
    expect(create).not.toThrow(/tok-abc/);
  });

  it('refuses dot segments in path parameters before sending', async () => {
    const fetch = fetchStub(() => jsonResponse({}));
    const client = new StoreClient({ ...BASIC, baseUrl: BASE_URL, fetch });
    const call = client.api.removeCustomerFromCustomerCategory({
      path: { id: 1, customer_id: '..' as unknown as number },
    });
    await expect(call).rejects.toBeInstanceOf(RequestValidationError);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('hooks and the raw response', () => {
  it('gives the parsed body next to the raw response, and reports requests, responses and retries', async () => {
    const fetch = fetchStub((_request, index) =>
      index === 0
        ? jsonResponse({ message: 'busy' }, { status: 503, headers: { 'retry-after': '0' } })
        : jsonResponse({ store: { code: 's1' } }, { status: 200, headers: { 'x-request-id': 'req-9' } }),
    );
    const events: string[] = [];
    const client = new StoreClient({
      ...BASIC,
      baseUrl: BASE_URL,
      fetch,
      rateLimit: false,
      hooks: {
        onRequest: (request, { attempt }) => void events.push(`request ${attempt} ${new URL(request.url).pathname}`),
        onResponse: (response, { attempt }) => void events.push(`response ${attempt} ${response.status}`),
        onRetry: ({ attempt, delayMs, reason }) => void events.push(`retry ${attempt} ${delayMs} ${reason}`),
      },
    });
    const { data, response } = await client.api.getStoreInfo().withResponse();
    expect(data).toEqual({ store: { code: 's1' } });
    expect(response.headers.get('x-request-id')).toBe('req-9');
    expect(events).toEqual([
      'request 1 /v1/store/info.json',
      'response 1 503',
      'retry 1 0 status 503',
      'request 2 /v1/store/info.json',
      'response 2 200',
    ]);
  });
});
