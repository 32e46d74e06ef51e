/**
 * `@agent-apis/store/webhooks`: verify and type the store's webhook deliveries, and receive them safely.
 *
 * The platform POSTs each delivery with header `Jumpseller-Hmac-Sha256`: the base64 HMAC-SHA256 of the raw
 * request body, keyed with the store's hooks token. Verification recomputes it over the exact bytes received
 * (re-encoded JSON does not match) and compares in constant time. The token never appears in an error.
 *
 * A delivery carries the record the event is about in the REST API's envelope (the platform documents an order
 * event as `{ "order": { ... } }`): `order_*` → `Order`, `product_*` (including `product_stock_updated` and
 * `product_deleted`) → `Product`, `customer_*` → `Customer`. A delivery is accepted only under a kind whose family
 * names its envelope: a signed product delivery re-posted as `order_paid` or `customer_deleted` is refused, and so is
 * a bare record, which has no family. Every field of these schemas is optional except `id` of products, so handlers
 * must not assume more than the schema says.
 *
 * Deliveries do not say which event they are (the hook registration does: one event per hook), so the handler
 * reads the kind from the `event` query parameter of the hook URL you register, e.g.
 * `store.hooks.create({ event: 'order_paid', url: 'https://example.com/hooks?event=order_paid' })`.
 * The signature covers the body only, neither the URL nor a time: whoever holds one signed delivery can re-post it
 * later, or under another kind of the same family (an `order_updated` body as `order_paid`). Act on the record's own
 * state (an order's `status`), not on the kind alone; drop repeats with a {@link DeliveryLog}.
 *
 * {@link createWebhookListener} is the receiving end for `node:http` (and the servers that share its request and
 * response objects): it refuses an unsigned request before reading its body, caps each body and the bytes held
 * across all bodies, cuts off a body that does not arrive in time, and never lets a broken connection throw.
 */

import { AgentApiError, ConfigurationError } from '@agent-apis/core';
import { type BoundedBytes, boundedBytes } from '@agent-apis/core/call';
import type { CustomerFields, HookEditFields, OrderFields, ProductFields } from './gen/types.gen.js';

/** The header carrying the signature. */
export const SIGNATURE_HEADER = 'Jumpseller-Hmac-Sha256';

/** The 13 events a hook can subscribe to (`createHook`). */
export type WebhookEventKind = HookEditFields['event'];

export const WEBHOOK_EVENT_KINDS = [
  'order_updated',
  'order_pending_payment',
  'order_paid',
  'order_shipped',
  'order_canceled',
  'order_abandoned',
  'product_created',
  'product_updated',
  'product_deleted',
  'product_stock_updated',
  'customer_created',
  'customer_updated',
  'customer_deleted',
] as const satisfies readonly WebhookEventKind[];

/** The record each event carries (see the module comment for why). */
export type WebhookRecord<Kind extends WebhookEventKind> = Kind extends `order_${string}`
  ? OrderFields
  : Kind extends `product_${string}`
    ? ProductFields
    : CustomerFields;

/** A verified delivery: its kind, and the record it carries typed by that kind. */
export type WebhookEvent<Kind extends WebhookEventKind = WebhookEventKind> = {
  [K in Kind]: { kind: K; data: WebhookRecord<K> };
}[Kind];

/** Why a delivery was refused: no signature, a header that is not a base64 SHA-256 digest, or a wrong one. */
export type WebhookSignatureProblem = 'missing' | 'malformed' | 'mismatch';

/** The delivery's signature is missing, malformed or wrong: it did not come from the store (or was altered). */
export class WebhookSignatureError extends AgentApiError {
  override name = 'WebhookSignatureError';
  readonly problem: WebhookSignatureProblem;
  constructor(problem: WebhookSignatureProblem) {
    const what = {
      missing: `has no ${SIGNATURE_HEADER} header`,
      malformed: `has a ${SIGNATURE_HEADER} header that is not a base64 HMAC-SHA256`,
      mismatch: `has a ${SIGNATURE_HEADER} that does not match its body`,
    }[problem];
    super(`Webhook delivery ${what}`);
    this.problem = problem;
  }
}

/** A signed delivery whose body or event kind cannot be read. */
export class WebhookPayloadError extends AgentApiError {
  override name = 'WebhookPayloadError';
}

const encoder = new TextEncoder();

function bytesOf(body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body);
}

/**
 * Decodes a standard base64 SHA-256 digest (44 characters, one `=`), or undefined when it is not one. Only the
 * canonical spelling is a digest: the 43rd character carries 4 bits of the digest and 2 that must be zero, so the
 * same 32 bytes have four spellings; the three whose spare bits are set are refused (each would be another key of
 * a delivery log, and so a replay).
 */
function decodeDigest(header: string): Uint8Array | undefined {
  const text = header.trim();
  if (!/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/.test(text)) return undefined;
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The canonical base64 of a digest: what a delivery log keys on, whatever spelling the header used. */
function digestKey(digest: Uint8Array): string {
  return btoa(String.fromCharCode(...digest));
}

/** Equal without an early exit, so the time taken does not tell how many leading bytes matched. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** The hooks token must be a non-empty string: an empty key would sign anything anyone can compute. */
function checkToken(token: unknown, where: string): asserts token is string {
  if (typeof token !== 'string' || token === '') {
    throw new AgentApiError(`${where} needs the store hooks token (option \`token\`), got an empty one`);
  }
}

/**
 * Checks a delivery's signature against its raw body (the exact bytes received, before any JSON parsing) and
 * the store's hooks token. Throws {@link WebhookSignatureError} unless it matches.
 */
export async function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  signature: string | null | undefined,
  token: string,
): Promise<void> {
  checkToken(token, 'verifyWebhookSignature');
  if (signature === null || signature === undefined || signature.trim() === '') {
    throw new WebhookSignatureError('missing');
  }
  const received = decodeDigest(signature);
  if (!received) throw new WebhookSignatureError('malformed');
  const key = await crypto.subtle.importKey('raw', bytesOf(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, bytesOf(rawBody)));
  if (!constantTimeEqual(expected, received)) throw new WebhookSignatureError('mismatch');
}

/** The record families: the envelope key each delivery carries, and the first word of its kinds. */
const FAMILIES = ['order', 'product', 'customer'] as const;

function familyOf(kind: WebhookEventKind): (typeof FAMILIES)[number] {
  return kind.slice(0, kind.indexOf('_')) as (typeof FAMILIES)[number];
}

function isEventKind(kind: unknown): kind is WebhookEventKind {
  return (WEBHOOK_EVENT_KINDS as readonly unknown[]).includes(kind);
}

/** What {@link parseWebhook} needs: the raw body, the signature header's value, the hooks token, the kind. */
export interface WebhookInput<Kind extends WebhookEventKind> {
  rawBody: string | Uint8Array;
  signature: string | null | undefined;
  token: string;
  kind: Kind;
}

/**
 * Verifies a delivery, then parses it into a typed event. Throws {@link WebhookSignatureError} before looking at
 * the body when the signature does not match, and {@link WebhookPayloadError} for an unknown kind, a body that is
 * not a JSON object, or a body whose envelope is not the kind's family (`{ "order": … }` for `order_*`).
 */
export async function parseWebhook<Kind extends WebhookEventKind>(
  input: WebhookInput<Kind>,
): Promise<WebhookEvent<Kind>> {
  await verifyWebhookSignature(input.rawBody, input.signature, input.token);
  return parseVerified(input.rawBody, input.kind);
}

/** The typed event of a delivery whose signature was already verified. */
function parseVerified<Kind extends WebhookEventKind>(rawBody: string | Uint8Array, kind: Kind): WebhookEvent<Kind> {
  if (!isEventKind(kind)) throw new WebhookPayloadError(`Unknown webhook event kind ${JSON.stringify(kind)}`);
  let body: unknown;
  try {
    body = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    throw new WebhookPayloadError(`Webhook ${kind} delivery is not valid JSON`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new WebhookPayloadError(`Webhook ${kind} delivery is not a JSON object`);
  }
  const family = familyOf(kind);
  const record = Object.hasOwn(body, family) ? (body as Record<string, unknown>)[family] : undefined;
  const others = FAMILIES.filter((other) => other !== family && Object.hasOwn(body, other));
  if (record === null || typeof record !== 'object' || Array.isArray(record) || others.length > 0) {
    const found = others.length > 0 ? `carries ${others.map((other) => `a ${other}`).join(' and ')}` : 'is not one';
    throw new WebhookPayloadError(
      `Webhook ${kind} delivery must be ${family === 'order' ? 'an' : 'a'} ${family} record ({ "${family}": { ... } }), but it ${found}`,
    );
  }
  return { kind, data: record } as WebhookEvent<Kind>;
}

/** One delivery as any HTTP framework can give it. */
export interface WebhookDelivery {
  /** The raw body, exactly as received. */
  body: string | Uint8Array;
  /** Request headers (a `Headers`, or Node's `IncomingHttpHeaders`). */
  headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The request URL (absolute, or path and query), read for the `event` query parameter. */
  url: string;
}

/** The answer to send back. */
export interface WebhookAnswer {
  status: number;
  body: string;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The store's hooks token. */
  token: string;
  /** Called with every verified event. */
  onEvent: (event: WebhookEvent) => unknown;
  /**
   * How long to wait for `onEvent` before answering 202 and letting it finish in the background, in ms: from 0 to
   * under 15 000, the platform's wait for an answer (default 10 000). Anything else (`Infinity`, a negative number,
   * `NaN`) is a `ConfigurationError` at creation: a timer cannot take it, so every delivery would be answered 202 at
   * once and a failing `onEvent` never retried.
   */
  answerWithinMs?: number | undefined;
  /** Receives errors of `onEvent` calls that outlived `answerWithinMs` (default: ignored). */
  onLateError?: ((error: unknown) => void) | undefined;
  /** Where the kind comes from (default: the `event` query parameter of the hook URL). */
  kindOf?: ((delivery: WebhookDelivery) => string | null | undefined) | undefined;
  /**
   * Drops repeats: a delivery (same kind, same signed body) already handled, or being handled, is answered 200
   * `duplicate` without calling `onEvent`. One that failed (500) is forgotten, so the platform's retry is handled.
   */
  deliveries?: DeliveryLog | undefined;
}

/** A header's value whatever the case of its name (Node lower-cases names; a plain record may not). */
function headerValue(headers: WebhookDelivery['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  const key = Object.hasOwn(headers, wanted)
    ? wanted
    : Object.keys(headers).find((candidate) => candidate.toLowerCase() === wanted);
  const value = key === undefined ? undefined : headers[key];
  return typeof value === 'string' ? value : value?.[0];
}

const DEFAULT_ANSWER_WITHIN_MS = 10_000;
/** The platform waits this long for an answer: waiting as long for `onEvent` would answer no one. */
const PLATFORM_WAIT_MS = 15_000;

/** `answerWithinMs` as given, or the default; throws a {@link ConfigurationError} naming it when out of range. */
function answerWithin(value: unknown): number {
  if (value === undefined) return DEFAULT_ANSWER_WITHIN_MS;
  if (typeof value !== 'number' || !(value >= 0 && value < PLATFORM_WAIT_MS)) {
    throw new ConfigurationError(
      `createWebhookHandler option \`answerWithinMs\` must be a number of ms from 0 to under ${PLATFORM_WAIT_MS} (the platform's wait for an answer), got ${typeof value === 'number' ? value : typeof value}`,
    );
  }
  return value;
}

/** The kind `kindOf` names; a URL or a `kindOf` that cannot be read is a {@link WebhookPayloadError}. */
function readKind(kindOf: (delivery: WebhookDelivery) => string | null | undefined, delivery: WebhookDelivery) {
  let kind: string | null | undefined;
  try {
    kind = kindOf(delivery);
  } catch {
    throw new WebhookPayloadError('Webhook delivery names no readable event kind');
  }
  if (kind === null || kind === undefined || kind === '') {
    throw new WebhookPayloadError(
      'Webhook delivery names no event kind: register the hook with its event in the URL, e.g. https://example.com/hooks?event=order_paid (or pass kindOf)',
    );
  }
  return kind as WebhookEventKind;
}

/**
 * A framework-neutral webhook endpoint: verifies and parses each delivery, runs `onEvent`, and answers fast.
 * 401 for a bad signature, 400 for an unreadable body or kind, 500 when `onEvent` throws in time (the platform
 * retries), 200 when it finished, 202 when it is still running after `answerWithinMs`. A token that is empty or an
 * `answerWithinMs` out of range is refused here, at creation.
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (delivery: WebhookDelivery) => Promise<WebhookAnswer> {
  checkToken(options.token, 'createWebhookHandler');
  const answerWithinMs = answerWithin(options.answerWithinMs);
  const kindOf =
    options.kindOf ?? ((delivery) => new URL(delivery.url, 'http://hook.invalid').searchParams.get('event'));
  return async (delivery) => {
    let event: WebhookEvent;
    try {
      // The signature first: nothing else of an unsigned delivery (its URL included) is read.
      await verifyWebhookSignature(delivery.body, headerValue(delivery.headers, SIGNATURE_HEADER), options.token);
      event = parseVerified(delivery.body, readKind(kindOf, delivery));
    } catch (error) {
      if (error instanceof WebhookSignatureError) return { status: 401, body: error.message };
      if (error instanceof WebhookPayloadError) return { status: 400, body: error.message };
      throw error;
    }
    // Keyed on the digest's bytes (it is canonical once verified), so no other spelling of it reads as new.
    const digest = decodeDigest(headerValue(delivery.headers, SIGNATURE_HEADER) ?? '') as Uint8Array;
    const key = `${event.kind} ${digestKey(digest)}`;
    if (options.deliveries && !options.deliveries.claim(key)) return { status: 200, body: 'duplicate' };
    const handled = Promise.resolve().then(() => options.onEvent(event));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), answerWithinMs);
    });
    try {
      const outcome = await Promise.race([handled.then(() => 'done' as const), late]);
      if (outcome === 'late') {
        handled.catch((error: unknown) => options.onLateError?.(error));
        return { status: 202, body: 'accepted' };
      }
      return { status: 200, body: 'ok' };
    } catch {
      options.deliveries?.forget(key);
      return { status: 500, body: `handling ${event.kind} failed` };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Options of {@link createDeliveryLog}. */
export interface DeliveryLogOptions {
  /** Most deliveries remembered, a whole number ≥ 1; the oldest is dropped first (default 10 000). */
  maxEntries?: number | undefined;
  /** How long a delivery is remembered, in ms > 0 (default 24 h). */
  ttlMs?: number | undefined;
  /** The clock (default `Date.now`). */
  now?: (() => number) | undefined;
}

/** The deliveries one process has handled recently, to drop repeats (see {@link createDeliveryLog}). */
export interface DeliveryLog {
  /** True when `key` is new (and now remembered); false for a repeat within the window. */
  claim(key: string): boolean;
  /** Forgets `key`, so that a retry of a delivery that failed is handled. */
  forget(key: string): void;
}

/**
 * A bounded, in-memory {@link DeliveryLog} for `createWebhookHandler({ deliveries })`. It catches re-posted
 * deliveries within `ttlMs` in this process; a fleet of receivers needs a shared one (the same two methods over a
 * shared store, e.g. `SET key 1 NX PX ttl`).
 */
export function createDeliveryLog(options: DeliveryLogOptions = {}): DeliveryLog {
  const { maxEntries = 10_000, ttlMs = 24 * 60 * 60 * 1000 } = options;
  // Either one out of range would let every repeat through (a log of 0 entries, or NaN, keeps nothing).
  const refuse = (option: string, range: string, value: number): never => {
    throw new ConfigurationError(`createDeliveryLog option \`${option}\` must be ${range}, got ${value}`);
  };
  if (!(Number.isInteger(maxEntries) && maxEntries >= 1)) refuse('maxEntries', 'a whole number ≥ 1', maxEntries);
  if (!(ttlMs > 0)) refuse('ttlMs', 'a number of ms > 0', ttlMs);
  const now = options.now ?? Date.now;
  const seenAt = new Map<string, number>();
  return {
    claim(key) {
      const at = now();
      const earlier = seenAt.get(key);
      if (earlier !== undefined && at - earlier < ttlMs) return false;
      seenAt.delete(key);
      seenAt.set(key, at);
      for (const oldest of seenAt.keys()) {
        if (seenAt.size <= maxEntries) break;
        seenAt.delete(oldest);
      }
      return true;
    },
    forget(key) {
      seenAt.delete(key);
    },
  };
}

/** The parts of a `node:http` `IncomingMessage` the listener uses. */
export interface WebhookRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/** The parts of a `node:http` `ServerResponse` the listener uses. */
export interface WebhookResponse {
  readonly headersSent: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body: string, done?: () => void): unknown;
}

/** Options of {@link createWebhookListener}: those of the handler, plus the limits of the body read. */
export interface WebhookListenerOptions extends WebhookHandlerOptions {
  /** Largest body accepted, in bytes (default 1 MiB); a larger one is answered 413 and its connection closed. */
  maxBodyBytes?: number | undefined;
  /**
   * Most bytes held at once across all bodies still arriving (default 16 MiB): past it a delivery is answered 503
   * (the platform retries), so any number of stalled connections holds at most this much.
   */
  maxPendingBytes?: number | undefined;
  /** How long a body may take to arrive, in ms from the request (default 10 000); a slower one is answered 408. */
  bodyTimeoutMs?: number | undefined;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_PENDING_BYTES = 16 * 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** The longest delay a timer takes (2^31 - 1 ms): a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

function positive(value: number | undefined, fallback: number, option: string, max = Number.MAX_VALUE): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    const range = max === Number.MAX_VALUE ? 'a positive number' : `a positive number up to ${max}`;
    throw new ConfigurationError(`createWebhookListener option \`${option}\` must be ${range}, got ${value}`);
  }
  return value;
}

/**
 * A `node:http` request listener that receives deliveries: `createServer(createWebhookListener({ token, onEvent }))`.
 * A request without a well-formed signature header is answered 401 before any of its body is read; then the body
 * is read under `maxBodyBytes`, `maxPendingBytes` and `bodyTimeoutMs`, and handed to {@link createWebhookHandler}.
 * A client that resets, or sends half a body and leaves, only loses its own request: nothing it does throws.
 */
export function createWebhookListener(
  options: WebhookListenerOptions,
): (request: WebhookRequest, response: WebhookResponse) => void {
  const handle = createWebhookHandler(options);
  const maxBodyBytes = positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes');
  const maxPendingBytes = positive(options.maxPendingBytes, DEFAULT_MAX_PENDING_BYTES, 'maxPendingBytes');
  const bodyTimeoutMs = positive(options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS, 'bodyTimeoutMs', MAX_TIMER_MS);
  let pendingBytes = 0;
  /** Bodies still arriving, each with the bytes it claims (announced or held) and how to refuse it. */
  const arriving = new Set<{ claim: () => number; refuse: () => void }>();

  return (request, response) => {
    /** The body so far, counted against `maxBodyBytes` (core's bounded reader); dropped once reading stops. */
    let body: BoundedBytes | undefined = boundedBytes(maxBodyBytes);
    let claimed = 0;
    let reading = true;
    const self = {
      claim: () => claimed,
      refuse: () => refuse(503, 'too many deliveries arriving at once, retry later'),
    };
    /** Counts `bytes` against the budget; over it, the largest claim goes first (this request on a tie). */
    const claim = (bytes: number): boolean => {
      pendingBytes += bytes - claimed;
      claimed = bytes;
      while (pendingBytes > maxPendingBytes) {
        let largest = self;
        for (const other of arriving) if (other.claim() > largest.claim()) largest = other;
        largest.refuse();
        if (largest === self) return false;
      }
      return true;
    };
    const stopReading = () => {
      if (!reading) return;
      reading = false;
      arriving.delete(self);
      clearTimeout(deadline);
      pendingBytes -= claimed;
      claimed = 0;
      body = undefined;
    };
    const send = (status: number, text: string, thenClose: boolean) => {
      try {
        if (response.headersSent) return;
        const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
        if (thenClose) headers.connection = 'close';
        response.writeHead(status, headers);
        response.end(text, thenClose ? () => request.destroy() : undefined);
      } catch {
        request.destroy();
      }
    };
    /** Answers without reading further, and closes the connection (its unread body is never drained). */
    const refuse = (status: number, text: string) => {
      if (!reading) return;
      stopReading();
      send(status, text, true);
    };
    // Registered first: an aborted or reset request emits 'error', which must never reach the process.
    request.on('error', () => {
      stopReading();
      request.destroy();
    });
    request.on('close', stopReading);
    const deadline = setTimeout(() => refuse(408, 'the body did not arrive in time'), bodyTimeoutMs);

    if (request.method !== 'POST') return refuse(405, 'webhook deliveries are POST requests');
    try {
      const signature = headerValue(request.headers, SIGNATURE_HEADER);
      if (signature === undefined || signature.trim() === '') throw new WebhookSignatureError('missing');
      if (!decodeDigest(signature)) throw new WebhookSignatureError('malformed');
    } catch (error) {
      return refuse(401, (error as Error).message);
    }
    const declared = Number(headerValue(request.headers, 'content-length') ?? 0);
    if (declared > maxBodyBytes) return refuse(413, `the body is larger than ${maxBodyBytes} bytes`);
    arriving.add(self);
    // An announced length is claimed before any byte is read, so a request over the budget is refused unread.
    if (!claim(Number.isSafeInteger(declared) && declared > 0 ? declared : 0)) return;

    request.on('data', (chunk) => {
      if (!reading || !body) return;
      try {
        body.add(chunk);
      } catch {
        return refuse(413, `the body is larger than ${maxBodyBytes} bytes`);
      }
      if (body.size > claimed) claim(body.size);
    });
    request.on('end', () => {
      if (!reading) return;
      // The body stays counted in maxPendingBytes until it is answered, and can no longer be refused.
      reading = false;
      arriving.delete(self);
      clearTimeout(deadline);
      const bytes = body?.bytes() ?? new Uint8Array(0);
      body = undefined;
      handle({ body: bytes, headers: request.headers, url: request.url ?? '/' })
        .then(
          (answer) => send(answer.status, answer.body, false),
          () => send(500, 'the delivery could not be handled', false),
        )
        .finally(() => {
          pendingBytes -= claimed;
          claimed = 0;
        });
    });
  };
}
