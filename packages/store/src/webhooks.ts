/**
 * `@agent-apis/store/webhooks`: verify and type the store's webhook deliveries.
 *
 * The platform POSTs each delivery with header `Jumpseller-Hmac-Sha256`: the base64 HMAC-SHA256 of the raw
 * request body, keyed with the store's hooks token. Verification recomputes it over the exact bytes received
 * (re-encoded JSON does not match) and compares in constant time. The token never appears in an error.
 *
 * Payloads are not documented per event. Assumed here, and why: a delivery carries the record the event is
 * about, in the same form as the REST answer for that record (`getOrder`, `getProduct`, `getCustomer`), since
 * the hook subscribes to changes of that record: `order_*` → `Order` (`{ order: {...} }`), `product_*`
 * (including `product_stock_updated` and `product_deleted`) → `Product`, `customer_*` → `Customer`. A body that
 * is the bare record (no envelope) is accepted as well. Every field of these schemas is optional except `id`
 * of products, so handlers must not assume more than the schema says.
 *
 * Deliveries do not say which event they are (the hook registration does: one event per hook), so the handler
 * reads the kind from the `event` query parameter of the hook URL you register, e.g.
 * `store.hooks.create({ event: 'order_paid', url: 'https://example.com/hooks?event=order_paid' })`.
 * The signature covers the body only, not the URL: whoever holds one signed delivery can re-post it under another
 * kind of the same family (an `order_updated` body as `order_paid`). Act on the record's own state (an order's
 * `status`), not on the kind alone, or give each hook URL a secret path of its own and pass a `kindOf` that reads it.
 */
import { AgentApiError } from '@agent-apis/core';
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

/** Decodes a standard base64 SHA-256 digest (44 characters, one `=`), or undefined when it is not one. */
function decodeDigest(header: string): Uint8Array | undefined {
  const text = header.trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return undefined;
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Equal without an early exit, so the time taken does not tell how many leading bytes matched. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
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
  if (signature === null || signature === undefined || signature.trim() === '') {
    throw new WebhookSignatureError('missing');
  }
  const received = decodeDigest(signature);
  if (!received) throw new WebhookSignatureError('malformed');
  const key = await crypto.subtle.importKey('raw', bytesOf(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, bytesOf(rawBody)));
  if (!constantTimeEqual(expected, received)) throw new WebhookSignatureError('mismatch');
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
 * the body when the signature does not match, and {@link WebhookPayloadError} for an unknown kind or a body
 * that is not a JSON object.
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
  const envelope = kind.slice(0, kind.indexOf('_'));
  const record = Object.hasOwn(body, envelope) ? (body as Record<string, unknown>)[envelope] : body;
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new WebhookPayloadError(`Webhook ${kind} delivery has no ${envelope} object`);
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
   * How long to wait for `onEvent` before answering 202 and letting it finish in the background (default
   * 10 000 ms, within the platform's 15 s).
   */
  answerWithinMs?: number | undefined;
  /** Receives errors of `onEvent` calls that outlived `answerWithinMs` (default: ignored). */
  onLateError?: ((error: unknown) => void) | undefined;
  /** Where the kind comes from (default: the `event` query parameter of the hook URL). */
  kindOf?: ((delivery: WebhookDelivery) => string | null | undefined) | undefined;
}

function headerValue(headers: WebhookDelivery['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name.toLowerCase()] ?? headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

const DEFAULT_ANSWER_WITHIN_MS = 10_000;

/** The kind `kindOf` names; a URL or a `kindOf` that cannot be read is a {@link WebhookPayloadError}. */
function readKind(kindOf: (delivery: WebhookDelivery) => string | null | undefined, delivery: WebhookDelivery) {
  try {
    return kindOf(delivery) as WebhookEventKind;
  } catch {
    throw new WebhookPayloadError('Webhook delivery names no readable event kind');
  }
}

/**
 * A framework-neutral webhook endpoint: verifies and parses each delivery, runs `onEvent`, and answers fast.
 * 401 for a bad signature, 400 for an unreadable body or kind, 500 when `onEvent` throws in time (the platform
 * retries), 200 when it finished, 202 when it is still running after `answerWithinMs`.
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (delivery: WebhookDelivery) => Promise<WebhookAnswer> {
  if (typeof options.token !== 'string' || options.token === '') {
    throw new AgentApiError('createWebhookHandler needs the store hooks token (option `token`)');
  }
  const answerWithinMs = options.answerWithinMs ?? DEFAULT_ANSWER_WITHIN_MS;
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
      return { status: 500, body: `handling ${event.kind} failed` };
    } finally {
      clearTimeout(timer);
    }
  };
}
