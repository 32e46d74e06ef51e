import { inspect } from 'node:util';
import { createFetch } from '@agent-apis/test-utils/operation-requests';
import { describe, expect, it, vi } from 'vitest';
import { APIConnectionError, AuthenticationError } from './answer-errors.js';
import type { Logger } from './logger.js';
import {
  describeRequest,
  isCredentialHeader,
  isCredentialQueryParam,
  REDACTED,
  redactError,
  redactHeaders,
  redactText,
  redactUrl,
  redactValue,
  secretsFromRequest,
} from './redact.js';
import { createTransport } from './transport.js';

describe('isCredentialHeader', () => {
  it.each([
    'Authorization',
    'proxy-authorization',
    'Cookie',
    'set-cookie',
    'X-API-Key',
    'x-auth-token',
    'X-Login-Key',
    'x-client-secret',
    'x-db-password',
  ])('treats %s as a credential', (name) => {
    expect(isCredentialHeader(name)).toBe(true);
  });

  it.each(['content-type', 'accept', 'x-request-id', 'cache-control'])('leaves %s alone', (name) => {
    expect(isCredentialHeader(name)).toBe(false);
  });
});

describe('isCredentialQueryParam', () => {
  it('knows the credential parameter names, case-insensitively', () => {
    for (const name of ['login', 'AuthToken', 'auth_token', 'access_token', 'api_key', 'apikey', 'token', 'key']) {
      expect(isCredentialQueryParam(name)).toBe(true);
    }
    expect(isCredentialQueryParam('keyword')).toBe(false);
    expect(isCredentialQueryParam('limit')).toBe(false);
  });
});

describe('redactUrl', () => {
  it('masks credential query values and keeps the rest', () => {
    const url = new URL('https://api.example.test/v1/products.json?login=shop-owner&limit=5&authtoken=tok-123456');
    expect(redactUrl(url)).toBe(
      `https://api.example.test/v1/products.json?login=${REDACTED}&limit=5&authtoken=${REDACTED}`,
    );
    expect(url.searchParams.get('authtoken')).toBe('tok-123456');
  });

  it('masks user-info', () => {
    expect(redactUrl('https://alice:pa55word@example.test/x')).toBe(`https://${REDACTED}@example.test/x`);
  });
});

describe('redactHeaders', () => {
  it('masks credential headers without touching the input', () => {
    const headers = new Headers({ authorization: 'Bearer abcdefghijkl', accept: 'application/json', 'x-api-key': 'k' });
    expect(redactHeaders(headers)).toEqual({
      accept: 'application/json',
      authorization: REDACTED,
      'x-api-key': REDACTED,
    });
    expect(headers.get('authorization')).toBe('Bearer abcdefghijkl');
  });

  it('masks known secrets echoed in other headers', () => {
    expect(redactHeaders({ 'x-echo': 'you sent s3cr3t-value' }, ['s3cr3t-value'])).toEqual({
      'x-echo': `you sent ${REDACTED}`,
    });
  });
});

describe('redactText', () => {
  it('masks every occurrence of a secret, its URL-encoded form, and longer secrets first', () => {
    const text = 'key=ab+cd/ef==, again ab+cd/ef==, encoded ab%2Bcd%2Fef%3D%3D, prefix ab+c';
    expect(redactText(text, ['ab+c', 'ab+cd/ef=='])).toBe(
      `key=${REDACTED}, again ${REDACTED}, encoded ${REDACTED}, prefix ${REDACTED}`,
    );
  });

  it('masks a secret in any case, base64 at every alignment, and the base64 login:token pair', () => {
    const token = 'shpat_Secret123';
    const login = 'me';
    const text = [
      token.toUpperCase(),
      token.toLowerCase(),
      btoa(`${login}:${token}`),
      btoa(token),
      btoa(`x${token}y`),
      btoa(`xy${token}`),
      btoa(`{"echo":"${token}"}`),
    ].join(' | ');
    const masked = redactText(text, [login, token]);
    expect(masked).not.toMatch(/shpat_secret123/i);
    expect(masked).not.toContain(btoa(`${login}:${token}`));
    // Decoding whatever base64 is left never gives the token back.
    for (const part of masked.split(/[^A-Za-z0-9+/=]+/).filter((word) => word.length >= 4)) {
      let decoded = '';
      try {
        decoded = atob(part.padEnd(Math.ceil(part.length / 4) * 4, '='));
      } catch {}
      expect(decoded).not.toContain(token);
    }
    expect(masked.split(' | ').every((part) => part.includes('[REDACTED]'))).toBe(true);
  });

  it('does not mask secrets shorter than the minimum length', () => {
    expect(redactText('a b c', ['b'])).toBe('a b c');
  });

  it('masks bearer and basic credentials and credential query values without being told the secret', () => {
    expect(redactText('sent Authorization: Bearer eyJhbGciOi.payload.sig to GET /x?token=t0ken-value&page=2')).toBe(
      `sent Authorization: Bearer ${REDACTED} to GET /x?token=${REDACTED}&page=2`,
    );
    expect(redactText('Basic dXNlcjpwYXNzd29yZA==')).toBe(`Basic ${REDACTED}`);
  });
});

describe('secretsFromRequest', () => {
  it('collects header credentials, the Basic token and password, and credential query values', () => {
    const basic = btoa('shop-login:auth-token-value');
    const request = new Request('https://api.example.test/v1/x?apikey=query-key-value&q=shoes', {
      headers: { authorization: `Basic ${basic}`, 'x-api-key': 'header-key-value', accept: 'text/plain' },
    });
    const secrets = secretsFromRequest(request);
    expect(secrets).toEqual(
      expect.arrayContaining([
        `Basic ${basic}`,
        basic,
        'shop-login:auth-token-value',
        'auth-token-value',
        'header-key-value',
        'query-key-value',
      ]),
    );
    expect(secrets).not.toContain('text/plain');
    expect(secrets).not.toContain('shoes');
  });
});

describe('describeRequest', () => {
  it('describes method, URL and headers with credentials masked', () => {
    const request = new Request('https://api.example.test/v1/x?login=owner-login', {
      method: 'post',
      headers: { 'x-auth-token': 'secret-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(describeRequest(request)).toEqual({
      method: 'POST',
      url: `https://api.example.test/v1/x?login=${REDACTED}`,
      headers: { 'content-type': 'application/json', 'x-auth-token': REDACTED },
    });
  });
});

describe('redactValue', () => {
  it('masks credential-looking keys only when asked, and secrets everywhere', () => {
    const value = { user: 'ann', password: 'hunter2-long', nested: [{ note: 'my key is k-987654' }] };
    expect(redactValue(value, ['k-987654'], { maskCredentialKeys: true })).toEqual({
      user: 'ann',
      password: REDACTED,
      nested: [{ note: `my key is ${REDACTED}` }],
    });
    expect(redactValue(value, ['k-987654'])).toMatchObject({ password: 'hunter2-long' });
    expect(value.nested[0]?.note).toBe('my key is k-987654');
  });

  it('survives cycles', () => {
    const looped: Record<string, unknown> = { name: 'loop' };
    looped.self = looped;
    expect(redactValue(looped)).toEqual({ name: 'loop', self: '[Circular]' });
  });
});

describe('redactError', () => {
  it('keeps name and code, masks message, stack and the cause chain', () => {
    const root = Object.assign(new Error('connect ECONNREFUSED for secret-abcdef'), { code: 'ECONNREFUSED' });
    const error = new TypeError('fetch failed: secret-abcdef', { cause: root });
    const copy = redactError(error, ['secret-abcdef']);
    expect(copy.name).toBe('TypeError');
    expect(copy.message).toBe(`fetch failed: ${REDACTED}`);
    expect((copy.cause as Error & { code: string }).code).toBe('ECONNREFUSED');
    expect(inspect(copy, { depth: Number.POSITIVE_INFINITY })).not.toContain('secret-abcdef');
    expect(error.message).toContain('secret-abcdef');
  });
});

/**
 * End-to-end canaries: a credential sent by each supported scheme must not surface anywhere an error or a log
 * line can reach, even when the server echoes it back or the network error quotes it.
 */
describe('credential canaries', () => {
  const CANARY = 'CANARY-7f3a9c1e5b';
  const schemes: { scheme: string; url: string; headers: Record<string, string> }[] = [
    {
      scheme: 'HTTP Basic',
      url: 'https://store.example.test/v1/products.json',
      headers: { authorization: `Basic ${btoa(`shop-login:${CANARY}`)}` },
    },
    {
      scheme: 'bearer token',
      url: 'https://store.example.test/v1/products.json',
      headers: { authorization: `Bearer ${CANARY}` },
    },
    { scheme: 'X-API-Key', url: 'https://trust.example.test/v1/decide', headers: { 'x-api-key': CANARY } },
    {
      scheme: 'query login/authtoken',
      url: `https://store.example.test/v1/products.json?login=${CANARY}-login&authtoken=${CANARY}`,
      headers: {},
    },
  ];

  function captureLogger(): { logger: Logger; output: () => string } {
    const lines: unknown[][] = [];
    const record = (...args: unknown[]) => {
      lines.push(args);
    };
    return {
      logger: { debug: record, info: record, warn: record, error: record },
      output: () => lines.map((args) => inspect(args, { depth: Number.POSITIVE_INFINITY })).join('\n'),
    };
  }

  function expectNoCanary(error: unknown, logOutput: string): void {
    const texts = [
      String(error),
      (error as Error).message,
      JSON.stringify(error),
      inspect(error, { depth: Number.POSITIVE_INFINITY }),
      logOutput,
    ];
    for (const text of texts) expect(text).not.toContain(CANARY);
  }

  it.each(schemes)('$scheme: a 401 that echoes the credentials leaks nothing', async ({ url, headers }) => {
    const { logger, output } = captureLogger();
    const echo = [...Object.values(headers), url].join(' ');
    const basicDecoded = `shop-login:${CANARY}`;
    const upstream = vi.fn(
      async () =>
        new Response(JSON.stringify({ message: `bad credentials ${echo} (${basicDecoded})`, echo }), {
          status: 401,
          headers: { 'content-type': 'application/json', 'set-cookie': `session=${CANARY}`, 'x-echo': echo },
        }),
    );
    const send = createFetch(createTransport, { fetch: upstream, logger, logLevel: 'debug' });
    const error = await send(url, { headers }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(upstream).toHaveBeenCalledTimes(1);
    expect(output()).not.toBe('');
    expectNoCanary(error, output());
  });

  it.each(schemes)('$scheme: a network error quoting the request leaks nothing', async ({ url, headers }) => {
    const { logger, output } = captureLogger();
    const upstream = vi.fn(async (request: Request) => {
      const quoted = `${request.url} ${[...request.headers.values()].join(' ')}`;
      throw new TypeError(`fetch failed for ${quoted}`, { cause: new Error(`socket closed: ${quoted}`) });
    });
    const send = createFetch(createTransport, {
      fetch: upstream as typeof fetch,
      logger,
      logLevel: 'debug',
      sleep: async () => {},
    });
    const error = await send(url, { headers }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(upstream).toHaveBeenCalledTimes(3);
    expectNoCanary(error, output());
  });
});

describe('redactText without secrets', () => {
  it('masks each pattern however little text surrounds it', () => {
    expect(redactText('https://h.test/a?token=abcdef')).toBe('https://h.test/a?token=[REDACTED]');
    expect(redactText('https://user:pw@h.test/')).toBe('https://[REDACTED]@h.test/');
    expect(redactText('Bearer abcdefghijkl')).toBe('Bearer [REDACTED]');
    expect(redactText('https://h.test/plain/path')).toBe('https://h.test/plain/path');
  });
});
