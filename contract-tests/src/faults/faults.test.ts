/**
 * The real clients against a fault-injecting loopback server: reads recover within their retry budget or fail
 * with the documented error class, a paginated walk through injected faults yields every record exactly once,
 * a POST is never sent twice, and credentials of every auth scheme stay out of errors, logs and reports.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  InternalServerError,
  type Logger,
  RateLimitBanError,
  RateLimitError,
  ResponseParseError,
  ResponseTooLargeError,
} from '@agent-apis/core';
import { DirectoryClient } from '@agent-apis/directory';
import { StoreClient } from '@agent-apis/store';
import {
  type Answer,
  type Fault,
  type FaultServer,
  type FaultServerOptions,
  faultsFirst,
  type ReceivedRequest,
  seededFaults,
  startFaultServer,
} from '@agent-apis/test-servers/faults/fault-server';
import { TrustClient } from '@agent-apis/trust';
import { describe, expect, it } from 'vitest';
import { CoverageRecorder } from '../evidence/coverage.ts';

/** The call's timeout: short enough to keep the file fast, long enough for loopback answers on a busy machine. */
const TIMEOUT_MS = 1_000;

const RETRY_NOW = { 'retry-after': '0' };
const FAULT = {
  tooManyRequests: { kind: 'status', status: 429, headers: RETRY_NOW },
  unavailable: { kind: 'status', status: 503, headers: RETRY_NOW },
  reset: { kind: 'reset' },
  stallHeaders: { kind: 'stall-headers' },
  stallBody: { kind: 'stall-body' },
  truncate: { kind: 'truncate' },
  malformedJson: { kind: 'malformed-json' },
  wrongContentType: { kind: 'wrong-content-type' },
  endlessBody: { kind: 'endless-body' },
  gzipBomb: { kind: 'gzip-bomb' },
  stallErrorBody: { kind: 'stall-error-body' },
  notModified: { kind: 'not-modified' },
} as const satisfies Record<string, Fault>;

function describeFault(fault: Fault): string {
  return fault.kind === 'status' ? `${fault.status} with Retry-After` : fault.kind;
}

/** Runs `test` against a fresh fault server and always closes it. */
async function withServer(options: FaultServerOptions, test: (server: FaultServer) => Promise<void>): Promise<void> {
  const server = await startFaultServer(options);
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

interface ReadUnderTest {
  name: string;
  method: 'GET';
  path: string;
  answer: unknown;
  read: (baseUrl: string, call: { maxRetries: number; timeout?: number }) => Promise<unknown>;
}

const STATS = { personas: 1, skills: 2, bundles: 3, agents: 4, tools: 5, guides: 6 };
const PRODUCTS = [{ product: { id: 1, name: 'Mug' } }, { product: { id: 2, name: 'Cup' } }];
const STORE_CREDENTIALS = { login: 'fault-login', authToken: 'fault-auth-token' };

const READS: ReadUnderTest[] = [
  {
    name: 'directory stats()',
    method: 'GET',
    path: '/api/stats',
    answer: STATS,
    read: (baseUrl, call) => new DirectoryClient({ baseUrl, timeout: TIMEOUT_MS }).stats(call),
  },
  {
    name: 'store api.listProducts()',
    method: 'GET',
    path: '/v1/products.json',
    answer: PRODUCTS,
    read: (baseUrl, call) =>
      new StoreClient({ baseUrl: `${baseUrl}/v1`, ...STORE_CREDENTIALS, timeout: TIMEOUT_MS }).api.listProducts({
        query: { limit: 10 },
        ...call,
      }),
  },
];

type ErrorClass = abstract new (...args: never[]) => Error;

interface FaultCase {
  fault: Fault;
  /** The error class of a read whose every attempt meets this fault. */
  error: ErrorClass;
}

/** Faults a read must ride out by retrying. */
const RETRYABLE: FaultCase[] = [
  { fault: FAULT.tooManyRequests, error: RateLimitError },
  { fault: FAULT.unavailable, error: InternalServerError },
  { fault: FAULT.reset, error: APIConnectionError },
  { fault: FAULT.truncate, error: APIConnectionError },
];

/** Stalls, which run the call's whole `timeout` out: the deadline covers every attempt, so none follows. */
const STALLS = [FAULT.stallHeaders, FAULT.stallBody];

/** Answers that are no use, which must fail with a typed error rather than leak a raw one or pass as data. */
const UNUSABLE: FaultCase[] = [
  { fault: FAULT.malformedJson, error: ResponseParseError },
  { fault: FAULT.wrongContentType, error: ResponseParseError },
];

describe.concurrent.each(READS)('reads under faults: $name', (target) => {
  const respond = (): Answer => ({ body: target.answer });

  for (const { fault } of RETRYABLE) {
    it(`one ${describeFault(fault)}, then an answer: succeeds with one retry`, () =>
      withServer({ respond, fault: faultsFirst(fault) }, async (server) => {
        await expect(target.read(server.url, { maxRetries: 1 })).resolves.toEqual(target.answer);
        expect(server.count(target.method, target.path)).toBe(2);
      }));
  }

  for (const { fault, error } of RETRYABLE) {
    it(`${describeFault(fault)} on every attempt: ${error.name} after the retry budget`, () =>
      withServer({ respond, fault: () => fault }, async (server) => {
        const failure = await target.read(server.url, { maxRetries: 1 }).catch((caught: unknown) => caught);
        expect(failure).toBeInstanceOf(error);
        if (error === APIConnectionError) expect(failure).not.toBeInstanceOf(APIConnectionTimeoutError);
        if (failure instanceof RateLimitError) expect(failure.retryAfterMs).toBe(0);
        expect(server.count(target.method, target.path)).toBe(2);
      }));
  }

  for (const fault of STALLS) {
    it(`${describeFault(fault)}: APIConnectionTimeoutError at the call's timeout, not retried`, () =>
      withServer({ respond, fault: () => fault }, async (server) => {
        await expect(target.read(server.url, { maxRetries: 1 })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
        expect(server.count(target.method, target.path)).toBe(1);
      }));
  }

  for (const { fault, error } of UNUSABLE) {
    it(`${describeFault(fault)}: rejects with ${error.name}`, () =>
      withServer({ respond, fault: () => fault }, async (server) => {
        await expect(target.read(server.url, { maxRetries: 1 })).rejects.toBeInstanceOf(error);
      }));
  }

  for (const fault of [FAULT.endlessBody, FAULT.gzipBomb]) {
    it(`${describeFault(fault)}: stops at the size cap with ResponseTooLargeError, not retried`, () =>
      withServer({ respond, fault: () => fault }, async (server) => {
        // The cap must end the read, never the clock: a timeout far beyond it, however slow the machine streams.
        await expect(target.read(server.url, { maxRetries: 1, timeout: 120_000 })).rejects.toBeInstanceOf(
          ResponseTooLargeError,
        );
        expect(server.count(target.method, target.path)).toBe(1);
      }));
  }

  it('stall-error-body: the timeout covers the error body (APIConnectionTimeoutError, no hang)', () =>
    withServer({ respond, fault: () => FAULT.stallErrorBody }, async (server) => {
      await expect(target.read(server.url, { maxRetries: 0 })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    }));

  it('not-modified (unsolicited 304): a typed APIError with status 304', () =>
    withServer({ respond, fault: () => FAULT.notModified }, async (server) => {
      const failure = await target.read(server.url, { maxRetries: 0 }).catch((caught: unknown) => caught);
      expect(failure).toBeInstanceOf(APIError);
      expect((failure as APIError).status).toBe(304);
    }));

  it('redirect to another origin: not followed, so the credentials never reach it', () =>
    withServer({ respond }, async (elsewhere) =>
      withServer(
        { respond, fault: () => ({ kind: 'redirect', location: `${elsewhere.url}${target.path}` }) },
        async (server) => {
          const failure = await target.read(server.url, { maxRetries: 0 }).catch((caught: unknown) => caught);
          expect(failure).toBeInstanceOf(APIError);
          expect((failure as APIError).status).toBe(302);
          expect(elsewhere.requests).toHaveLength(0);
        },
      ),
    ));
});

describe.concurrent('hostile answers to the trust and store clients', () => {
  const DECISION = { decision: { action: 'proceed' } };

  it('trust: follows no redirect at all, not even to its own origin', () =>
    withServer({ respond: () => ({ body: DECISION }) }, async (server) => {
      const moved = { kind: 'redirect', status: 307, location: `${server.url}/elsewhere/decide` } as const;
      await withServer({ respond: () => ({ body: DECISION }), fault: () => moved }, async (redirecting) => {
        const pointed = new TrustClient({
          baseUrl: redirecting.url,
          apiKey: 'sk_ent0_fault_key',
          cache: false,
          timeout: TIMEOUT_MS,
        });
        const failure = await pointed.decide('example.com').catch((caught: unknown) => caught);
        expect(failure).toBeInstanceOf(APIError);
        expect((failure as APIError).status).toBe(307);
        expect(server.requests).toHaveLength(0);
      });
    }));

  it('store: the rate-limit ban header stops calls at once, and no further request is sent while banned', () => {
    const resetAt = new Date(Date.now() + 3_600_000).toISOString();
    const ban: Fault = {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '0', 'Jumpseller-BannedByRateLimit-Reset': resetAt },
    };
    return withServer({ respond: () => ({ body: PRODUCTS }), fault: () => ban }, async (server) => {
      const client = new StoreClient({
        baseUrl: `${server.url}/v1`,
        login: 'ban-login',
        authToken: 'ban-auth-token',
        timeout: TIMEOUT_MS,
      });
      for (let call = 0; call < 5; call++) {
        await expect(client.api.listProducts()).rejects.toBeInstanceOf(RateLimitBanError);
      }
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe.concurrent('a paginated walk over 1,000 records with 20 % injected faults', () => {
  const RECORDS = 1_000;
  const SEED = 20_261_121;
  /** Every fault a read is expected to retry (a stall ends the call at its timeout; truncated bodies: own cases). */
  const WALK_FAULTS = [FAULT.tooManyRequests, FAULT.unavailable, FAULT.reset];
  /** One request in five meets a fault; a fresh draw sequence per walk, as the walks run concurrently. */
  const fault = () => seededFaults(SEED, 5, WALK_FAULTS);
  const PAGE_SIZE = 25;

  /** Each page was answered once, and a fifth of all requests met a fault. */
  function expectEveryPageAnsweredOnce(requests: readonly ReceivedRequest[]): void {
    const answered = requests.filter((request) => !request.fault).map((request) => request.url);
    expect(new Set(answered).size).toBe(answered.length);
    const faulted = requests.length - answered.length;
    expect(faulted).toBeGreaterThanOrEqual(Math.floor(requests.length / 5));
  }

  it('directory mcpServers.list (offset envelopes) yields every record exactly once', () => {
    const servers = Array.from({ length: RECORDS }, (_, index) => ({
      owner: 'fault-owner',
      repo: `server-${index}`,
      title: `Server ${index}`,
      category: 'testing',
      official: false,
      tags: [],
      stars: RECORDS - index,
      transport: 'stdio',
      url: `https://directory.example/mcp/fault-owner/server-${index}`,
    }));
    const respond = (request: ReceivedRequest): Answer => {
      const query = new URL(request.url, 'http://fault.test').searchParams;
      const limit = Number(query.get('limit') ?? 20);
      const offset = Number(query.get('offset') ?? 0);
      const results = servers.slice(offset, offset + limit);
      return { body: { count: results.length, total: RECORDS, limit, offset, results } };
    };
    return withServer({ respond, fault: fault() }, async (server) => {
      const client = new DirectoryClient({ baseUrl: server.url, timeout: TIMEOUT_MS, maxRetries: 4 });
      const seen: string[] = [];
      for await (const item of client.mcpServers.list({ limit: PAGE_SIZE })) seen.push(item.repo);
      expect(seen).toHaveLength(RECORDS);
      expect(new Set(seen)).toEqual(new Set(servers.map((item) => item.repo)));
      expectEveryPageAnsweredOnce(server.requests);
    });
  });

  it('store products.list (page numbers) yields every record exactly once', () => {
    const products = Array.from({ length: RECORDS }, (_, index) => ({ product: { id: index + 1, name: `P${index}` } }));
    const respond = (request: ReceivedRequest): Answer => {
      const query = new URL(request.url, 'http://fault.test').searchParams;
      const limit = Number(query.get('limit'));
      const page = Number(query.get('page'));
      return { body: products.slice((page - 1) * limit, page * limit) };
    };
    return withServer({ respond, fault: fault() }, async (server) => {
      const store = new StoreClient({
        baseUrl: `${server.url}/v1`,
        ...STORE_CREDENTIALS,
        timeout: TIMEOUT_MS,
        maxRetries: 4,
      });
      const seen: number[] = [];
      for await (const product of store.products.list({ limit: PAGE_SIZE })) seen.push(product.id);
      expect(seen).toHaveLength(RECORDS);
      expect(new Set(seen)).toEqual(new Set(products.map(({ product }) => product.id)));
      expectEveryPageAnsweredOnce(server.requests);
    });
  });
});

describe.concurrent('a POST is never sent twice', () => {
  const writes = [
    {
      name: 'trust decide',
      path: '/v1/decide',
      send: (baseUrl: string) =>
        new TrustClient({ baseUrl, apiKey: 'sk_ent0_fault_key', timeout: TIMEOUT_MS, maxRetries: 5 }).decide(
          'github.com',
        ),
    },
    {
      name: 'store api.createProduct',
      path: '/v1/products.json',
      send: (baseUrl: string) =>
        new StoreClient({
          baseUrl: `${baseUrl}/v1`,
          ...STORE_CREDENTIALS,
          timeout: TIMEOUT_MS,
          maxRetries: 5,
        }).api.createProduct({
          body: { product: { name: 'Mug', price: 5 } },
        }),
    },
  ];
  const faults = [
    FAULT.tooManyRequests,
    FAULT.unavailable,
    FAULT.reset,
    FAULT.stallHeaders,
    FAULT.truncate,
    FAULT.malformedJson,
    FAULT.wrongContentType,
  ];
  for (const write of writes) {
    for (const fault of faults) {
      it(`${write.name} meeting ${describeFault(fault)} (maxRetries 5): sent exactly once`, () =>
        withServer({ respond: () => ({ body: {} }), fault: () => fault }, async (server) => {
          await write.send(server.url).catch(() => undefined);
          expect(server.count('POST', write.path)).toBe(1);
        }));
    }
    it(`${write.name} meeting stall-body: fails once, sent exactly once`, () =>
      withServer({ respond: () => ({ body: {} }), fault: () => FAULT.stallBody }, async (server) => {
        await expect(write.send(server.url)).rejects.toBeInstanceOf(APIConnectionTimeoutError);
        expect(server.count('POST', write.path)).toBe(1);
      }));
  }
});

describe.concurrent('credentials never reach errors, logs or reports', () => {
  const STORE_LOGIN = 'canary-login-5e1b9d';
  const STORE_TOKEN = 'canary-store-token-2c7f40';
  const STORE_BASIC_PAIR = btoa(`${STORE_LOGIN}:${STORE_TOKEN}`);
  const STORE_ACCESS = 'canary-access-token-8a3e61';
  const QUERY_LOGIN = 'canary-query-login-41d0';
  const QUERY_TOKEN = 'canary-query-authtoken-93ce';
  const TRUST_KEY = 'sk_ent0_canary_6b9d2f17';

  interface Scheme {
    name: string;
    service: 'store' | 'trust';
    operation: string;
    /** Every form of the credentials that must not come out. */
    secrets: string[];
    /** The form that goes on the wire, which the echoing server sends back. */
    sent: string;
    call: (baseUrl: string, logger: Logger) => Promise<unknown>;
  }

  const storeClient = (baseUrl: string, logger: Logger, credentials: object) =>
    new StoreClient({
      baseUrl: `${baseUrl}/v1`,
      ...credentials,
      timeout: TIMEOUT_MS,
      maxRetries: 1,
      logger,
      logLevel: 'debug',
    });
  const trustClient = (baseUrl: string, logger: Logger, authScheme: 'api-key' | 'bearer') =>
    new TrustClient({ baseUrl, apiKey: TRUST_KEY, authScheme, timeout: TIMEOUT_MS, logger, logLevel: 'debug' });

  const SCHEMES: Scheme[] = [
    {
      name: 'store HTTP Basic',
      service: 'store',
      operation: 'listProducts',
      secrets: [STORE_LOGIN, STORE_TOKEN, STORE_BASIC_PAIR],
      sent: STORE_BASIC_PAIR,
      call: (baseUrl, logger) =>
        storeClient(baseUrl, logger, { login: STORE_LOGIN, authToken: STORE_TOKEN }).api.listProducts(),
    },
    {
      name: 'store bearer',
      service: 'store',
      operation: 'listProducts',
      secrets: [STORE_ACCESS],
      sent: STORE_ACCESS,
      call: (baseUrl, logger) => storeClient(baseUrl, logger, { accessToken: STORE_ACCESS }).api.listProducts(),
    },
    {
      name: 'trust X-API-Key',
      service: 'trust',
      operation: 'decide',
      secrets: [TRUST_KEY],
      sent: TRUST_KEY,
      call: (baseUrl, logger) => trustClient(baseUrl, logger, 'api-key').decide('github.com'),
    },
    {
      name: 'trust bearer',
      service: 'trust',
      operation: 'decide',
      secrets: [TRUST_KEY],
      sent: TRUST_KEY,
      call: (baseUrl, logger) => trustClient(baseUrl, logger, 'bearer').decide('github.com'),
    },
  ];

  /** What a careless server or proxy sends back: the credentials it received, first, then the URL. */
  const echo = (request: ReceivedRequest) => ({
    authorization: request.headers.authorization,
    apiKey: request.headers['x-api-key'],
    url: request.url,
  });
  const CASES: {
    name: string;
    options: Omit<FaultServerOptions, 'respond'>;
    respond: FaultServerOptions['respond'];
  }[] = [
    { name: 'a 401 whose JSON body echoes them', options: {}, respond: (r) => ({ status: 401, body: echo(r) }) },
    {
      name: 'a retried 500 whose text body echoes them',
      options: {},
      respond: (r) => ({ status: 500, headers: RETRY_NOW, body: `rejected ${JSON.stringify(echo(r))}` }),
    },
    { name: 'a reset connection', options: { fault: () => FAULT.reset }, respond: (r) => ({ body: echo(r) }) },
    { name: 'a timeout', options: { fault: () => FAULT.stallHeaders }, respond: (r) => ({ body: echo(r) }) },
    {
      name: 'a half-sent JSON body echoing them',
      options: { fault: () => FAULT.malformedJson },
      respond: (r) => ({ body: echo(r) }),
    },
  ];

  /** A logger at debug level that keeps every line, fully expanded. */
  function capturingLogger(): { logger: Logger; lines: string[] } {
    const lines: string[] = [];
    const keep = (...parts: unknown[]) => lines.push(inspect(parts, { depth: Infinity }));
    return { logger: { debug: keep, info: keep, warn: keep, error: keep }, lines };
  }

  /** The coverage report the contract suite would write for this failure (its note is the error message). */
  async function reportFor(scheme: Scheme, error: unknown): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'agent-apis-faults-'));
    try {
      const recorder = new CoverageRecorder(scheme.service, 'mock', [scheme.operation], {});
      recorder.begin(scheme.operation, 'fault');
      recorder.fail(scheme.operation, 'fault', `${scheme.operation}: ${(error as Error).message}`);
      await recorder.write(dir);
      return await readFile(join(dir, `coverage-${scheme.service}.json`), 'utf8');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('store query login/authtoken (passed by the caller): refused before sending, neither value in the error', async () => {
    // The deprecated query-parameter scheme: the spec no longer declares it, so the keys are refused unsent.
    await withServer({ respond: (r) => ({ status: 401, body: echo(r) }) }, async (server) => {
      const { logger, lines } = capturingLogger();
      const query = { limit: 10, login: QUERY_LOGIN, authtoken: QUERY_TOKEN };
      const error = await storeClient(server.url, logger, { accessToken: STORE_ACCESS })
        .api.listProducts({ query })
        .then(
          () => expect.unreachable('the call should fail'),
          (caught: unknown) => caught,
        );
      expect(error).toMatchObject({ name: 'RequestValidationError', field: 'query.login' });
      expect(server.requests).toEqual([]);
      const exposed = [String(error), JSON.stringify(error), inspect(error, { depth: Infinity }), ...lines].join('\n');
      for (const secret of [QUERY_LOGIN, QUERY_TOKEN]) expect(exposed).not.toContain(secret);
    });
  });

  for (const scheme of SCHEMES) {
    for (const { name, options, respond } of CASES) {
      it(`${scheme.name}: ${name}`, () =>
        withServer({ ...options, respond }, async (server) => {
          const { logger, lines } = capturingLogger();
          const error = await scheme.call(server.url, logger).then(
            () => expect.unreachable('the call should fail'),
            (caught: unknown) => caught,
          );
          // The credentials did go out, so the server could echo them back.
          expect(JSON.stringify(server.requests)).toContain(scheme.sent);
          const exposed = [
            String(error),
            JSON.stringify(error),
            inspect(error, { depth: Infinity }),
            (error as Error).stack ?? '',
            ...lines,
            await reportFor(scheme, error),
          ].join('\n');
          expect(lines.length).toBeGreaterThan(0);
          for (const secret of scheme.secrets) expect(exposed).not.toContain(secret);
        }));
    }
  }
});
