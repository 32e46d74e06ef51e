import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  UnprocessableEntityError,
} from './internal/call/answer-errors.js';
import { boundedBytes } from './internal/call/body-reader.js';
import {
  apiErrorFromResponse,
  connectionError,
  createRequestContext,
  timeoutError,
} from './internal/call/error-response.js';
import {
  AgentApiError,
  APIUserAbortError,
  MissingCredentialsError,
  RequestValidationError,
} from './internal/call/errors.js';
import { REDACTED } from './internal/call/redact.js';

const productRequest = () =>
  new Request('https://store.example.test/v1/products/p1.json', { headers: { authorization: 'Bearer tok-abcdef123' } });
const productContext = () =>
  createRequestContext(productRequest(), { id: 'getProduct', route: 'GET /v1/products/{id}.json' });

/** What `run` throws (it must throw). */
function catchError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('apiErrorFromResponse', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [504, InternalServerError],
  ])('maps %i to %o', async (status, errorClass) => {
    const error = await apiErrorFromResponse(new Response('{}', { status }), productContext());
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error.status).toBe(status);
    expect(error.name).toBe(errorClass.name);
  });

  it.each([405, 410, 418])('maps %i, which has no subclass, to a plain APIError', async (status) => {
    const error = await apiErrorFromResponse(new Response('', { status }), productContext());
    expect(error.constructor).toBe(APIError);
  });

  it('writes a readable message naming the operation and the route', async () => {
    const response = Response.json({ error: { message: 'Product p1 does not exist' } }, { status: 404 });
    const error = await apiErrorFromResponse(response, productContext());
    expect(error.message).toBe(
      '404 Not Found on getProduct (GET /v1/products/{id}.json) at https://store.example.test/v1/products/p1.json: Product p1 does not exist',
    );
    expect(error.operation).toBe('getProduct');
    expect(error.route).toBe('GET /v1/products/{id}.json');
    expect(error.body).toEqual({ error: { message: 'Product p1 does not exist' } });
  });

  it('falls back to the method and actual path when the operation is unknown, and keeps text bodies', async () => {
    const response = new Response('upstream exploded', { status: 502, statusText: 'Bad Gateway' });
    const error = await apiErrorFromResponse(response, createRequestContext(productRequest()));
    expect(error.message).toBe(
      '502 Bad Gateway on GET /v1/products/p1.json at https://store.example.test/v1/products/p1.json: upstream exploded',
    );
    expect(error.operation).toBe('GET /v1/products/p1.json');
    expect(error.body).toBe('upstream exploded');
  });

  it('describes the request redacted and exposes the request id', async () => {
    const response = new Response(null, { status: 500, headers: { 'x-request-id': 'req-42' } });
    const error = await apiErrorFromResponse(response, productContext());
    expect(error.request).toEqual({
      method: 'GET',
      url: 'https://store.example.test/v1/products/p1.json',
      headers: { authorization: REDACTED },
    });
    expect(error.requestId).toBe('req-42');
    expect(error.body).toBeUndefined();
    expect(error.message).toBe(
      '500 Internal Server Error on getProduct (GET /v1/products/{id}.json) at https://store.example.test/v1/products/p1.json',
    );
  });

  it('gives a RateLimitError the wait the server asked for', async () => {
    const response = new Response('slow down', { status: 429, headers: { 'retry-after': '7' } });
    const error = await apiErrorFromResponse(response, productContext());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(7_000);
    // The deprecated alias reads the same value.
    expect((error as RateLimitError).retryAfterMs).toBe(7_000);
  });
});

describe('APIError messages that say what to do', () => {
  it('puts the server validation messages (errors by field) into the message, beside the summary', async () => {
    const body = {
      message: 'Validation failed',
      errors: { name: ["can't be blank"], price: ['is not a number', 'must be positive'] },
    };
    const error = await apiErrorFromResponse(Response.json(body, { status: 422 }), productContext());
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toBe(
      "422 Unprocessable Entity on getProduct (GET /v1/products/{id}.json) at https://store.example.test/v1/products/p1.json: Validation failed (name can't be blank; price is not a number, must be positive)",
    );
  });

  it('reads validation messages given alone, as a list of strings or of field/message records', async () => {
    const alone = await apiErrorFromResponse(
      Response.json({ errors: { name: ["can't be blank"] } }, { status: 422 }),
      productContext(),
    );
    expect(alone.message).toMatch(/: name can't be blank$/);
    const strings = await apiErrorFromResponse(
      Response.json({ errors: ['Name is too long'] }, { status: 422 }),
      productContext(),
    );
    expect(strings.message).toMatch(/: Name is too long$/);
    const records = await apiErrorFromResponse(
      Response.json(
        { error: { message: 'invalid', errors: [{ field: 'target.value', message: 'is required' }] } },
        { status: 400 },
      ),
      productContext(),
    );
    expect(records.message).toMatch(/: invalid \(target\.value is required\)$/);
  });

  it('shows the URL requested with its credentials masked', async () => {
    const request = new Request('https://store.example.test/v1/products/p1.json?api_key=sk-live-secret-1234&limit=2');
    const error = await apiErrorFromResponse(new Response(null, { status: 404 }), createRequestContext(request));
    expect(error.message).toContain('at https://store.example.test/v1/products/p1.json?api_key=');
    expect(error.message).not.toContain('sk-live-secret-1234');
    expect(error.message).toContain('limit=2');
  });

  it('hints at the base path on a 404 whose URL lacks the path the API lives under', async () => {
    const request = new Request('http://127.0.0.1:4010/products/count.json');
    const context = createRequestContext(request, {
      id: 'countProducts',
      route: 'GET /products/count.json',
      basePath: '/v1',
    });
    const error = await apiErrorFromResponse(new Response(null, { status: 404 }), context);
    expect(error.message).toBe(
      '404 Not Found on countProducts (GET /products/count.json) at http://127.0.0.1:4010/products/count.json (hint: the URL has no /v1; the API lives under it, so the base URL probably needs it: http://127.0.0.1:4010/v1)',
    );
  });

  it('gives no base-path hint when the URL has the base path, or for another status', async () => {
    const withBase = createRequestContext(new Request('http://127.0.0.1:4010/v1/products/9.json'), {
      id: 'getProduct',
      route: 'GET /products/{id}.json',
      basePath: '/v1',
    });
    const notFound = await apiErrorFromResponse(new Response(null, { status: 404 }), withBase);
    expect(notFound.message).not.toContain('hint');
    const without = createRequestContext(new Request('http://127.0.0.1:4010/products/9.json'), {
      id: 'getProduct',
      route: 'GET /products/{id}.json',
      basePath: '/v1',
    });
    const unauthorized = await apiErrorFromResponse(new Response(null, { status: 401 }), without);
    expect(unauthorized.message).not.toContain('hint');
  });
});

describe('connection errors, as the call path builds them', () => {
  it('APIConnectionError keeps a redacted cause and names the operation', () => {
    const cause = new TypeError('fetch failed', { cause: new Error('reset while sending Bearer tok-abcdef123') });
    const error = connectionError(productContext(), cause);
    expect(error.message).toMatch(
      /^Connection error on getProduct \(GET \/v1\/products\/\{id\}\.json\) to [\w.-]+:\d+: fetch failed$/,
    );
    expect((error.cause as Error).name).toBe('TypeError');
    expect(((error.cause as Error).cause as Error).message).toBe(`reset while sending ${REDACTED}`);
  });

  it('APIConnectionError from a context built by hand (no way to mask) keeps no cause, only its code', () => {
    const context = {
      operation: 'getProduct',
      route: 'GET /v1/products/{id}.json',
      request: { method: 'GET', url: 'https://api.example.com/v1/products/1.json', headers: {} },
      secrets: [],
    };
    const cause = Object.assign(new Error('connect refused, Bearer tok-abcdef123456'), { code: 'ECONNREFUSED' });
    const error = connectionError(context, cause);
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error.cause).toBeUndefined();
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toBe(
      'Connection error on getProduct (GET /v1/products/{id}.json) to api.example.com:443: ECONNREFUSED',
    );
  });

  it('ResponseTooLargeError, as the body reader throws it, masks the credentials of the URL', () => {
    const bytes = boundedBytes(10, { source: 'https://user:pass-word@x.test/items?token=abc123&page=2' });
    const error = catchError(() => bytes.add(new Uint8Array(11)));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toBe(
      `Response body from https://${REDACTED}@x.test/items?token=${REDACTED}&page=2 is larger than the 10-byte cap (maxResponseBytes); reading stopped`,
    );
  });

  it('APIConnectionTimeoutError is an APIConnectionError that states the timeout', () => {
    const error = timeoutError(productContext(), 1500);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.timeoutMs).toBe(1500);
    expect(error.message).toBe('Request timed out after 1500 ms on getProduct (GET /v1/products/{id}.json)');
  });

  it('APIUserAbortError is not an APIError', () => {
    const error = new APIUserAbortError(productContext());
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error).not.toBeInstanceOf(APIError);
    expect(error.message).toBe('Request aborted by the caller on getProduct (GET /v1/products/{id}.json)');
  });
});

describe('RequestValidationError', () => {
  it('names the operation and the field in its message', () => {
    const error = new RequestValidationError({
      operation: 'listServers',
      field: 'query.limit',
      reason: 'must be between 1 and 100 (got 500)',
    });
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error.message).toBe('Invalid request for listServers: query.limit must be between 1 and 100 (got 500)');
    expect(error).toMatchObject({ operation: 'listServers', field: 'query.limit' });
  });
});

describe('MissingCredentialsError', () => {
  it('names the options and environment variables to set, with the ones that go together joined', () => {
    const error = new MissingCredentialsError({
      client: 'StoreClient',
      options: [['login', 'authToken'], 'accessToken'],
      envVars: [['STORE_LOGIN', 'STORE_AUTH_TOKEN'], 'STORE_ACCESS_TOKEN'],
    });
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error.name).toBe('MissingCredentialsError');
    expect(error.message).toBe(
      'StoreClient needs credentials: pass `login` and `authToken`, or `accessToken`; ' +
        'or set STORE_LOGIN and STORE_AUTH_TOKEN, or STORE_ACCESS_TOKEN',
    );
    expect(error).toMatchObject({ options: [['login', 'authToken'], 'accessToken'] });
  });
});

describe('errors.ts', () => {
  it('holds every error class of every entry, the same class under the same name', async () => {
    const isErrorClass = (value: unknown) => typeof value === 'function' && value.prototype instanceof Error;
    const entries = await Promise.all([
      import('./index.js'),
      import('./service.js'),
      import('./call.js'),
      import('./http-cache.js'),
    ]);
    const errorClasses = entries.flatMap((entry) => Object.entries(entry)).filter(([, value]) => isErrorClass(value));
    const errors = await import('./errors.js');
    expect(errorClasses.map(([name]) => name)).toContain('RedisUnavailableError');
    for (const [name, errorClass] of errorClasses) expect(errors, name).toHaveProperty(name, errorClass);
    for (const [name, value] of Object.entries(errors)) {
      // Every throw is an AgentApiError: each class is the base or extends it.
      if (isErrorClass(value))
        expect(value === errors.AgentApiError || value.prototype instanceof errors.AgentApiError, name).toBe(true);
      else expect(name).toBe('errorClassForStatus');
    }
  });

  it('leaves the classes only a call throws out of every module a client loads at import', () => {
    const src = dirname(fileURLToPath(import.meta.url));
    const read = (file: string) => readFileSync(join(src, file), 'utf8');
    // Static value imports and re-exports only: `import type` is erased, `import()` loads later. The face (`errors.ts`)
    // only re-exports, and a bundler keeps of it what the importer uses, so it is not followed.
    const specifiers = (code: string) =>
      [...code.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)\.js';/gms)].map((match) => match[1]);
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file) || file === 'errors.ts') return;
      reached.add(file);
      for (const specifier of specifiers(read(file))) visit(join(dirname(file), `${specifier}.ts`));
    };
    for (const entry of ['index.ts', 'service.ts']) {
      reached.delete(entry);
      visit(entry);
    }
    const definedIn = (className: string) =>
      [...reached, 'internal/call/answer-errors.ts'].find((file) => read(file).includes(`export class ${className} `));
    expect(reached).toContain('pagination.ts');
    for (const className of ['APIError', 'NotFoundError', 'APIConnectionTimeoutError', 'ResponseValidationError']) {
      const file = definedIn(className);
      expect(file, className).toBeDefined();
      expect(reached, `${className} (${file}) is loaded at import`).not.toContain(file);
    }
    // What import-time code builds stays there (pagination throws these).
    for (const className of ['AgentApiError', 'RequestValidationError', 'ResponseParseError'])
      expect(
        [...reached].some((file) => read(file).includes(`export class ${className} `)),
        className,
      ).toBe(true);
  });
});
