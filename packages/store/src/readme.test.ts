import { readFileSync } from 'node:fs';
import { resetSharedRateLimiters } from '@agent-apis/core/call';
import { expectReadmeToEmbedEveryExample, runExample } from '@agent-apis/test-utils/readme';
import { describeWithRedis } from '@agent-apis/test-utils/redis';
import { faker } from '@faker-js/faker';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  getCountCustomersMockHandler,
  getCountProductsMockHandler,
  getGetProductMockHandler,
  getGetStoreInfoMockHandler,
  getListCustomersMockHandler,
  getListOrdersMockHandler,
  getListProductReviewsMockHandler,
  getListProductsMockHandler,
  getMockHandlers,
} from './gen/msw.gen.js';
import { resourceTable } from './gen/resources.gen.js';
import { CANARY } from './test-support.js';

const packageRoot = new URL('../', import.meta.url);
const readme = readFileSync(new URL('README.md', packageRoot), 'utf8');

describe('README', () => {
  it('embeds every example file verbatim, and nothing else as an example', async () => {
    await expectReadmeToEmbedEveryExample(packageRoot);
  });

  it('keeps its sections in the agreed order', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map(([, heading]) => heading);
    expect(headings).toEqual([
      'Install',
      'Quick start',
      'Resources',
      'Authentication',
      'Errors',
      'Retries',
      'Timeouts',
      'Pagination',
      'Rate limiting',
      'Response validation',
      'Webhooks',
      'Logging',
      'Testing with `./msw`',
    ]);
  });

  it('lists every resource and every method of resourceTable in its table of resources', () => {
    type Node = { readonly [name: string]: Node | readonly unknown[] };
    const expected: string[] = [];
    const walk = (node: Node, prefix: string[]) => {
      const methods = Object.keys(node).filter((name) => Array.isArray(node[name]));
      if (methods.length > 0) {
        expected.push(`| \`store.${prefix.join('.')}\` | ${methods.map((name) => `\`${name}\``).join(', ')} |`);
      }
      for (const [name, child] of Object.entries(node))
        if (!Array.isArray(child)) walk(child as Node, [...prefix, name]);
    };
    walk(resourceTable, []);
    const rows = readme.split('\n').filter((line) => line.startsWith('| `store.'));
    expect(rows).toEqual(expected);
  });
});

beforeEach(() => {
  resetSharedRateLimiters();
  vi.stubEnv('STORE_LOGIN', CANARY.login);
  vi.stubEnv('STORE_AUTH_TOKEN', CANARY.authToken);
  vi.stubEnv('STORE_ACCESS_TOKEN', '');
  vi.stubEnv('STORE_BASE_URL', '');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('README examples, against the ./msw handlers', () => {
  const server = setupServer(...getMockHandlers());
  const requests: Request[] = [];
  beforeAll(() => {
    faker.seed(20_261_121);
    server.events.on('request:start', ({ request }) => {
      requests.push(request.clone());
    });
    server.listen({ onUnhandledFrame: 'error' });
  });
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());

  it('quick-start: reads credentials from the environment, gets a product and walks paid orders', async () => {
    server.use(
      getGetProductMockHandler({ product: { id: 42, name: 'Mug' } }),
      getListOrdersMockHandler([{ order: { id: 1001, total: 25, currency: 'CLP' } }]),
    );
    expect(await runExample(packageRoot, 'quick-start')).toEqual(['Product 42 is Mug', 'Paid order 1001: 25 CLP']);
    expect(requests.map((request) => new URL(request.url).search)).toEqual([
      '',
      '?status_filters[]=paid&limit=50&page=1',
    ]);
    expect(requests[0]?.headers.get('authorization')).toBe(`Basic ${btoa(`${CANARY.login}:${CANARY.authToken}`)}`);
  });

  it('hooks: reports the retry, gives the raw response, calls one operation through the client', async () => {
    let calls = 0;
    server.use(
      http.get('*/products/:id.json', () =>
        calls++ === 0
          ? HttpResponse.json({ message: 'busy' }, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json({ product: { id: 42, name: 'Mug' } }),
      ),
    );
    expect(await runExample(packageRoot, 'hooks')).toEqual([
      'retrying getProduct (attempt 1) in 0 ms after status 503',
      'Mug (status 200)',
      'same product: true',
    ]);
  });

  it('authentication: one client per scheme', async () => {
    expect(await runExample(packageRoot, 'authentication')).toEqual(['basic bearer']);
  });

  it('errors: catches NotFoundError', async () => {
    server.use(
      http.get('*/products/:id.json', () => HttpResponse.json({ message: 'Product not found' }, { status: 404 })),
    );
    expect(await runExample(packageRoot, 'errors')).toEqual([
      'No such product: 404 Not Found on getProduct (GET /products/{id}.json) at https://api.jumpseller.com/v1/products/999999.json: Product not found',
    ]);
  });

  it('retries-timeouts: per-client and per-call settings', async () => {
    server.use(getGetStoreInfoMockHandler({ name: 'Demo Store', currency: 'CLP' }));
    expect(await runExample(packageRoot, 'retries-timeouts')).toEqual(['Demo Store sells in CLP']);
  });

  it('pagination: products, customers and product reviews', async () => {
    server.use(
      getListProductsMockHandler(({ request }) =>
        new URL(request.url).searchParams.get('page') === '1'
          ? [{ product: { id: 1, name: 'Mug' } }, { product: { id: 2, name: 'Cup' } }]
          : [],
      ),
      getListCustomersMockHandler([{ customer: { id: 5 } }, { customer: { id: 6 } }]),
      getListProductReviewsMockHandler([{ review: {} }]),
    );
    expect(await runExample(packageRoot, 'pagination')).toEqual([
      '1 Mug',
      '2 Cup',
      '2 customers',
      '1 reviews of product 42',
    ]);
    expect(requests.map((request) => new URL(request.url).pathname + new URL(request.url).search)).toEqual([
      '/v1/products.json?limit=100&page=1',
      '/v1/customers.json?limit=50&page=1',
      '/v1/products/42/reviews.json?limit=50&page=1',
    ]);
  });

  it('rate-limit: configured and shared budgets', async () => {
    server.use(getCountProductsMockHandler({ count: 12 }), getCountCustomersMockHandler({ count: 3 }));
    expect(await runExample(packageRoot, 'rate-limit')).toEqual(['12 products, 3 customers']);
  });

  it('response-validation: reports where a response breaks the schema', async () => {
    server.use(http.get('*/products/:id.json', () => HttpResponse.json({ product: { id: 'forty-two' } })));
    expect(await runExample(packageRoot, 'response-validation')).toEqual(['Unexpected response: product.id']);
  });
});

describeWithRedis('README fleet example', (redis) => {
  const server = setupServer(...getMockHandlers());
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());

  it('fleet: shares the budget through a real Redis', async () => {
    vi.stubEnv('REDIS_URL', redis.server.url);
    server.use(getCountProductsMockHandler({ count: 12 }));
    expect(await runExample(packageRoot, 'fleet')).toEqual(['12 products']);
  });
});

describe('README testing example', () => {
  it('testing: runs its own MSW server with a fixed answer', async () => {
    expect(await runExample(packageRoot, 'testing')).toEqual(['Product 42 is Mug']);
  });
});
