/**
 * Values a fleet keeps in a Redis it does not trust: anyone else with access to that Redis (another tenant, another
 * service, a leaked password) may read, rewrite, grow or delete any key. So every value is written signed (HMAC-SHA-256)
 * or sealed (AES-GCM) under a secret the fleet holds and a Redis user does not, bound to the key it is stored
 * under, read back only up to a size decided before anything is fetched, and taken as a miss when any check fails.
 * Web Crypto only: the same code runs in Node, Deno, Bun, workers and browsers.
 */
import type { RedisClientLike } from './redis-client.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Reads a string value of at most `maxBytes` in one round trip: a script returns nothing for a key that is missing,
 * not a string, or longer (so an oversized value is never sent, let alone decoded).
 */
const BOUNDED_GET = `if redis.call('TYPE', KEYS[1]).ok ~= 'string' then return false end
if redis.call('STRLEN', KEYS[1]) > tonumber(ARGV[1]) then return false end
return redis.call('GET', KEYS[1])`;

/** Runs a Lua script (`EVAL`: one round trip, Redis keeps it compiled). */
export function runScript(
  redis: RedisClientLike,
  script: string,
  keys: readonly string[],
  args: readonly string[],
): Promise<unknown> {
  return redis.sendCommand(['EVAL', script, String(keys.length), ...keys, ...args]);
}

/** The string at `key` when it is at most `maxBytes` long; null when missing, of another type, or longer. */
export async function getBounded(redis: RedisClientLike, key: string, maxBytes: number): Promise<string | null> {
  const reply = await runScript(redis, BOUNDED_GET, [key], [String(Math.floor(maxBytes))]);
  return typeof reply === 'string' ? reply : null;
}

const macKeys = new Map<string, Promise<CryptoKey>>();
const sealKeys = new Map<string, Promise<CryptoKey>>();

/** Key material of `secret` for one purpose: SHA-256(purpose NUL secret), so one secret gives unrelated keys. */
async function derived(secret: string, purpose: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', encoder.encode(`agent-apis ${purpose}\0${secret}`));
}

/** A key per purpose and secret, imported once (a process holds a few secrets). */
function cachedKey(
  cache: Map<string, Promise<CryptoKey>>,
  id: string,
  make: () => Promise<CryptoKey>,
): Promise<CryptoKey> {
  let key = cache.get(id);
  if (!key) {
    key = make();
    cache.set(id, key);
  }
  return key;
}

function macKey(secret: string, purpose: string): Promise<CryptoKey> {
  return cachedKey(macKeys, `${purpose}\0${secret}`, async () =>
    crypto.subtle.importKey('raw', await derived(secret, `${purpose} mac`), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]),
  );
}

function sealKey(secret: string, purpose: string): Promise<CryptoKey> {
  return cachedKey(sealKeys, `${purpose}\0${secret}`, async () =>
    crypto.subtle.importKey('raw', await derived(secret, `${purpose} seal`), { name: 'AES-GCM' }, false, [
      'encrypt',
      'decrypt',
    ]),
  );
}

/**
 * A name for `text` that only holders of `secret` can compute (hex HMAC): Redis key names that neither show nor
 * let anyone else find or forge the entry of a given request.
 */
export async function keyedName(secret: string, purpose: string, text: string): Promise<string> {
  const key = await macKey(secret, `${purpose} name`);
  return hex(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

/** `value` signed for the Redis key `redisKey`: `<base64url HMAC>.<value>`. */
export async function signValue(secret: string, purpose: string, redisKey: string, value: string): Promise<string> {
  const key = await macKey(secret, purpose);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${redisKey}\0${value}`));
  return `${base64url(new Uint8Array(mac))}.${value}`;
}

/** The value of a {@link signValue} string read back from `redisKey`; undefined when it was not signed so. */
export async function verifyValue(
  secret: string,
  purpose: string,
  redisKey: string,
  signed: string,
): Promise<string | undefined> {
  const dot = signed.indexOf('.');
  if (dot !== 43) return undefined;
  const mac = fromBase64url(signed.slice(0, dot));
  if (mac?.byteLength !== 32) return undefined;
  const value = signed.slice(dot + 1);
  const key = await macKey(secret, purpose);
  // `verify` compares in constant time.
  const genuine = await crypto.subtle.verify('HMAC', key, mac, encoder.encode(`${redisKey}\0${value}`));
  return genuine ? value : undefined;
}

/**
 * `value` encrypted and authenticated (AES-256-GCM, a random 96-bit nonce, the Redis key as additional data):
 * `<base64url nonce + ciphertext>`. A Redis reader learns its length, nothing else.
 */
export async function sealValue(secret: string, purpose: string, redisKey: string, value: string): Promise<string> {
  const key = await sealKey(secret, purpose);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(redisKey) },
      key,
      encoder.encode(value),
    ),
  );
  const joined = new Uint8Array(iv.byteLength + sealed.byteLength);
  joined.set(iv);
  joined.set(sealed, iv.byteLength);
  return base64url(joined);
}

/** The value of a {@link sealValue} string read back from `redisKey`; undefined when it fails to open. */
export async function openValue(
  secret: string,
  purpose: string,
  redisKey: string,
  sealed: string,
): Promise<string | undefined> {
  const bytes = fromBase64url(sealed);
  if (!bytes || bytes.byteLength < 12 + 16) return undefined;
  try {
    const key = await sealKey(secret, purpose);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(redisKey) },
      key,
      bytes.subarray(12),
    );
    return decoder.decode(plain);
  } catch {
    return undefined;
  }
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return undefined;
  }
}
