import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { CustomerFields, OrderFields, ProductFields } from './index.js';
import { AgentApiError, ConfigurationError } from './index.js';
import {
  createDeliveryLog,
  createWebhookHandler,
  createWebhookListener,
  parseWebhook,
  verifyWebhookSignature,
  type WebhookEvent,
  WebhookPayloadError,
  WebhookSignatureError,
} from './webhooks.js';

/*
 * Vectors computed outside this code, with OpenSSL 3 (bodies as UTF-8 bytes, no trailing newline):
 *   printf '%s' "$BODY" | openssl dgst -sha256 -hmac 'hooks-token-d41c7e' -binary | base64
 */
const TOKEN = 'hooks-token-d41c7e';
const ORDER_BODY = '{"order":{"id":1001,"status":"Paid","total":25.5,"currency":"CLP"}}';
const ORDER_SIGNATURE = '4LQDuyKEG7DZvw2mF6cTY6EYd7muJZE7DdGRgTxWPNw=';
const PRODUCT_BODY = '{"product":{"id":7,"name":"Taza de café","stock":3}}';
const PRODUCT_SIGNATURE = 'SceF8KEl0LjTPXaLW+zsdFxZxrDVccw5P7BGk1UkVn0=';

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'accepted',
    (error: unknown) => error,
  );
}

describe('verifyWebhookSignature', () => {
  it('accepts the vectors, as text and as raw bytes', async () => {
    await expect(verifyWebhookSignature(ORDER_BODY, ORDER_SIGNATURE, TOKEN)).resolves.toBeUndefined();
    await expect(
      verifyWebhookSignature(new TextEncoder().encode(PRODUCT_BODY), PRODUCT_SIGNATURE, TOKEN),
    ).resolves.toBeUndefined();
  });

  it('refuses a tampered body, the same JSON re-encoded, another token and a swapped signature', async () => {
    const cases = [
      verifyWebhookSignature(ORDER_BODY.replace('25.5', '2.55'), ORDER_SIGNATURE, TOKEN),
      verifyWebhookSignature(JSON.stringify(JSON.parse(ORDER_BODY), null, 1), ORDER_SIGNATURE, TOKEN),
      verifyWebhookSignature(`${ORDER_BODY}\n`, ORDER_SIGNATURE, TOKEN),
      verifyWebhookSignature(ORDER_BODY, ORDER_SIGNATURE, 'another-token'),
      verifyWebhookSignature(ORDER_BODY, PRODUCT_SIGNATURE, TOKEN),
    ];
    for (const error of await Promise.all(cases.map(refusal))) {
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toMatchObject({ problem: 'mismatch' });
    }
  });

  it('tells a missing signature from a malformed one, with errors that never show the token', async () => {
    for (const [signature, problem] of [
      [undefined, 'missing'],
      [null, 'missing'],
      ['', 'missing'],
      ['not base64!', 'malformed'],
      ['c2hvcnQ=', 'malformed'],
      [ORDER_SIGNATURE.replace('=', ''), 'malformed'],
    ] as const) {
      const error = await refusal(verifyWebhookSignature(ORDER_BODY, signature, TOKEN));
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toBeInstanceOf(AgentApiError);
      expect(error).toMatchObject({ problem });
      expect(String(error)).not.toContain(TOKEN);
    }
  });
});

describe('parseWebhook', () => {
  it('unwraps the record of a verified delivery, typed by its kind', async () => {
    const event = await parseWebhook({
      rawBody: ORDER_BODY,
      signature: ORDER_SIGNATURE,
      token: TOKEN,
      kind: 'order_paid',
    });
    expect(event).toEqual({ kind: 'order_paid', data: { id: 1001, status: 'Paid', total: 25.5, currency: 'CLP' } });
    expectTypeOf(event.data).toEqualTypeOf<OrderFields>();
    expectTypeOf<WebhookEvent<'product_stock_updated'>['data']>().toEqualTypeOf<ProductFields>();
    expectTypeOf<WebhookEvent<'customer_deleted'>['data']>().toEqualTypeOf<CustomerFields>();
  });

  it('checks the signature before reading the body, and refuses a body that is not a JSON object', async () => {
    const unsigned = await refusal(
      parseWebhook({ rawBody: 'not json', signature: undefined, token: TOKEN, kind: 'order_paid' }),
    );
    expect(unsigned).toBeInstanceOf(WebhookSignatureError);
    // Signed with the same command as the vectors above.
    const error = await refusal(
      parseWebhook({ rawBody: ORDER_BODY, signature: ORDER_SIGNATURE, token: TOKEN, kind: 'nope' as 'order_paid' }),
    );
    expect(error).toBeInstanceOf(WebhookPayloadError);
  });
});

/** `openssl dgst -sha256 -hmac` of `body` with TOKEN, computed here with WebCrypto for bodies made up in tests. */
async function signed(body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(TOKEN),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)));
  return btoa(String.fromCharCode(...digest));
}

describe('the hooks token', () => {
  it('refuses an empty token with a typed error, in every entry point', async () => {
    for (const token of ['', undefined as unknown as string]) {
      const verified = await refusal(verifyWebhookSignature(ORDER_BODY, ORDER_SIGNATURE, token));
      expect(verified).toBeInstanceOf(AgentApiError);
      expect(String(verified)).toContain('hooks token');
      const parsed = await refusal(
        parseWebhook({ rawBody: ORDER_BODY, signature: ORDER_SIGNATURE, token, kind: 'order_paid' }),
      );
      expect(parsed).toBeInstanceOf(AgentApiError);
      expect(() => createWebhookListener({ token, onEvent: () => {} })).toThrow(AgentApiError);
    }
  });
});

describe('the kind and the envelope', () => {
  it('refuses a signed product delivery under an order or customer kind, and a bare record under any', async () => {
    for (const kind of ['order_paid', 'customer_deleted'] as const) {
      const error = await refusal(
        parseWebhook({ rawBody: PRODUCT_BODY, signature: PRODUCT_SIGNATURE, token: TOKEN, kind }),
      );
      expect(error).toBeInstanceOf(WebhookPayloadError);
      expect(String(error)).toContain('it carries a product');
    }
    const bare = '{"id":1001,"status":"Paid"}';
    const error = await refusal(
      parseWebhook({ rawBody: bare, signature: await signed(bare), token: TOKEN, kind: 'order_paid' }),
    );
    expect(error).toBeInstanceOf(WebhookPayloadError);
    const two = '{"order":{"id":1},"customer":{"id":2}}';
    expect(
      await refusal(parseWebhook({ rawBody: two, signature: await signed(two), token: TOKEN, kind: 'order_paid' })),
    ).toBeInstanceOf(WebhookPayloadError);
    const product = await parseWebhook({
      rawBody: PRODUCT_BODY,
      signature: PRODUCT_SIGNATURE,
      token: TOKEN,
      kind: 'product_updated',
    });
    expect(product.data).toEqual({ id: 7, name: 'Taza de café', stock: 3 });
  });

  it('takes no record from the prototype chain', async () => {
    const body = '{"__proto__":{"id":1}}';
    const error = await refusal(
      parseWebhook({ rawBody: body, signature: await signed(body), token: TOKEN, kind: 'order_paid' }),
    );
    expect(error).toBeInstanceOf(WebhookPayloadError);
  });
});

describe('the four base64 spellings of one digest', () => {
  // 'w' is the canonical 43rd character (its 2 spare bits clear); 'x', 'y' and 'z' decode to the same 32 bytes.
  const spellings = ['w', 'x', 'y', 'z'].map((char) => `${ORDER_SIGNATURE.slice(0, 42)}${char}=`);

  it('verifies only the canonical one (finding: non-canonical base64)', async () => {
    expect(ORDER_SIGNATURE[42]).toBe('w');
    await expect(verifyWebhookSignature(ORDER_BODY, spellings[0], TOKEN)).resolves.toBeUndefined();
    for (const signature of spellings.slice(1)) {
      expect(await refusal(verifyWebhookSignature(ORDER_BODY, signature, TOKEN))).toMatchObject({
        problem: 'malformed',
      });
    }
  });

  it('runs onEvent once for a delivery sent under each spelling and padded with spaces (finding: webhook replay)', async () => {
    const onEvent = vi.fn();
    const handle = createWebhookHandler({ token: TOKEN, onEvent, deliveries: createDeliveryLog() });
    for (const signature of [...spellings, ` ${ORDER_SIGNATURE} `]) {
      await handle({
        body: ORDER_BODY,
        headers: { 'jumpseller-hmac-sha256': signature },
        url: '/hooks?event=order_paid',
      });
    }
    expect(onEvent).toHaveBeenCalledTimes(1);
  });
});

describe('createDeliveryLog', () => {
  it('claims a key once within its window, forgets on request, and keeps at most maxEntries', () => {
    let now = 0;
    const log = createDeliveryLog({ maxEntries: 2, ttlMs: 1_000, now: () => now });
    expect(log.claim('a')).toBe(true);
    expect(log.claim('a')).toBe(false);
    log.forget('a');
    expect(log.claim('a')).toBe(true);
    now = 1_000;
    expect(log.claim('a')).toBe(true);
    log.claim('b');
    log.claim('c');
    expect(log.claim('a')).toBe(true);
  });

  it('refuses a maxEntries or ttlMs that would keep nothing, with a ConfigurationError naming it', () => {
    // Each was taken, and the log then let every repeat through.
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      expect(() => createDeliveryLog({ maxEntries })).toThrow(ConfigurationError);
      expect(() => createDeliveryLog({ maxEntries })).toThrow(/option `maxEntries` must be a whole number ≥ 1/);
    }
    for (const ttlMs of [0, -5, Number.NaN]) {
      expect(() => createDeliveryLog({ ttlMs })).toThrow(/option `ttlMs` must be a number of ms > 0/);
    }
    const log = createDeliveryLog({ maxEntries: 1, ttlMs: Number.POSITIVE_INFINITY });
    expect([log.claim('a'), log.claim('a')]).toEqual([true, false]);
  });
});

describe('createWebhookHandler', () => {
  const delivery = (signature: string | undefined, url = '/hooks?event=order_paid') => ({
    body: ORDER_BODY,
    headers: signature === undefined ? {} : { 'jumpseller-hmac-sha256': signature },
    url,
  });

  it('cannot be created without a token', () => {
    expect(() => createWebhookHandler({ token: '', onEvent: () => {} })).toThrow(AgentApiError);
  });

  it('refuses at creation an answerWithinMs no timer can take, with a ConfigurationError naming it', () => {
    // Each was accepted, and a timer fired at once: every delivery answered 202, a failing onEvent never retried.
    for (const answerWithinMs of [Number.POSITIVE_INFINITY, -1, Number.NaN, 15_000, 60_000]) {
      const create = () => createWebhookHandler({ token: TOKEN, onEvent: () => {}, answerWithinMs });
      expect(create).toThrow(ConfigurationError);
      expect(create).toThrow(
        `createWebhookHandler option \`answerWithinMs\` must be a number of ms from 0 to under 15000 (the platform's wait for an answer), got ${answerWithinMs}`,
      );
      expect(() => createWebhookListener({ token: TOKEN, onEvent: () => {}, answerWithinMs })).toThrow(
        ConfigurationError,
      );
    }
    for (const answerWithinMs of [0, 1, 14_999, undefined]) {
      expect(() => createWebhookHandler({ token: TOKEN, onEvent: () => {}, answerWithinMs })).not.toThrow();
    }
  });

  it('refuses a listener bodyTimeoutMs longer than a timer takes (it would answer every body 408 at once)', () => {
    for (const bodyTimeoutMs of [2 ** 31, Number.POSITIVE_INFINITY, 0]) {
      expect(() => createWebhookListener({ token: TOKEN, onEvent: () => {}, bodyTimeoutMs })).toThrow(
        ConfigurationError,
      );
    }
    expect(() => createWebhookListener({ token: TOKEN, onEvent: () => {}, bodyTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it('answers 500, not 202, when onEvent fails in time with the longest answerWithinMs taken', async () => {
    const handle = createWebhookHandler({
      token: TOKEN,
      answerWithinMs: 14_999,
      onEvent: async () => {
        throw new Error('db down');
      },
    });
    expect(await handle(delivery(ORDER_SIGNATURE))).toEqual({ status: 500, body: 'handling order_paid failed' });
  });

  it('answers 200 after onEvent, with the event kind taken from the hook URL', async () => {
    const onEvent = vi.fn();
    const handle = createWebhookHandler({ token: TOKEN, onEvent });
    expect(await handle(delivery(ORDER_SIGNATURE))).toEqual({ status: 200, body: 'ok' });
    expect(onEvent).toHaveBeenCalledWith({ kind: 'order_paid', data: expect.objectContaining({ id: 1001 }) });
  });

  it('answers 401 without calling onEvent for a bad signature, 400 for an unknown kind', async () => {
    const onEvent = vi.fn();
    const handle = createWebhookHandler({ token: TOKEN, onEvent });
    expect((await handle(delivery(undefined))).status).toBe(401);
    expect((await handle(delivery(PRODUCT_SIGNATURE))).status).toBe(401);
    expect((await handle(delivery(ORDER_SIGNATURE, '/hooks'))).status).toBe(400);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers a request line Node accepts but URL cannot parse with 401 unsigned and 400 signed, never a throw', async () => {
    const onEvent = vi.fn();
    const handle = createWebhookHandler({ token: TOKEN, onEvent });
    expect(await handle(delivery(undefined, '//['))).toMatchObject({ status: 401 });
    expect(await handle(delivery(ORDER_SIGNATURE, '//['))).toMatchObject({ status: 400 });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('reads the signature header whatever the case of its name', async () => {
    const onEvent = vi.fn();
    const handle = createWebhookHandler({ token: TOKEN, onEvent });
    const answer = await handle({
      body: ORDER_BODY,
      headers: { 'JUMPSELLER-HMAC-SHA256': ORDER_SIGNATURE },
      url: '/hooks?event=order_paid',
    });
    expect(answer.status).toBe(200);
    expect(onEvent).toHaveBeenCalledOnce();
  });

  it('answers a repeated delivery 200 without calling onEvent again, and handles the retry of a failed one', async () => {
    let fail = true;
    const onEvent = vi.fn(() => {
      if (fail) throw new Error('db down');
    });
    const handle = createWebhookHandler({ token: TOKEN, onEvent, deliveries: createDeliveryLog() });
    expect((await handle(delivery(ORDER_SIGNATURE))).status).toBe(500);
    fail = false;
    expect(await handle(delivery(ORDER_SIGNATURE))).toEqual({ status: 200, body: 'ok' });
    expect(await handle(delivery(ORDER_SIGNATURE))).toEqual({ status: 200, body: 'duplicate' });
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it('answers 500 when onEvent fails in time, and 202 when it is still running', async () => {
    const failing = createWebhookHandler({
      token: TOKEN,
      onEvent: () => {
        throw new Error('db down');
      },
    });
    expect((await failing(delivery(ORDER_SIGNATURE))).status).toBe(500);
    const onLateError = vi.fn();
    let finish: (value?: unknown) => void = () => {};
    const slow = createWebhookHandler({
      token: TOKEN,
      answerWithinMs: 20,
      onEvent: () =>
        new Promise((_, reject) => {
          finish = reject;
        }),
      onLateError,
    });
    expect((await slow(delivery(ORDER_SIGNATURE))).status).toBe(202);
    finish(new Error('late failure'));
    await vi.waitFor(() => expect(onLateError).toHaveBeenCalledOnce());
  });
});
