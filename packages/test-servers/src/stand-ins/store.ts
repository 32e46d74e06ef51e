/**
 * A loopback stand-in of the store API that behaves like a small real store: the records of
 * `store-records.json`, Basic authentication on every call, unknown ids → 404 (anywhere in the path), the records
 * after an id for `/…/after/{id}`, 20 requests a second and 800 a
 * minute (configurable) with 429 beyond, and the `Jumpseller-*RateLimit-*` headers on every answer. Records are
 * created, updated and deleted for real (`store-writes.ts`). Query values outside the spec's rules get a 400
 * (strict) or are clamped and ignored (lenient), as the contract allows either. It remembers what a test must
 * check afterwards: writes to records it
 * did not see created, dangerous operations called, mock-only headers received.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenApiDocument, resolveRef } from '@agent-apis/specs/openapi';
import {
  type InputMode,
  loadDocument,
  MOCK_ONLY_HEADERS,
  type Route,
  readQuery,
  router,
  type StandIn,
  serve,
} from './server.ts';
import { type StoreRecord, storeWrites } from './store-writes.ts';

interface Fixture {
  records: Record<string, StoreRecord[]>;
  aliases: Record<string, string>;
  singletons: Record<string, unknown>;
}

export interface StoreStandInOptions {
  login: string;
  authToken: string;
  perSecond?: number;
  perMinute?: number;
  latencyMs?: number;
  /** Records added to the fixture's (decoys a write run must leave alone), by collection (`/products`). */
  records?: Record<string, StoreRecord[]>;
  /** A hostile store: the create answer of a collection (`/products`) names this existing record's id instead. */
  createAnswers?: Record<string, number>;
  /** Query values outside the spec's rules: 400 (`strict`, the default) or clamped/ignored (`lenient`). */
  mode?: InputMode;
  /**
   * Planted violations: `listField`, a string `price` in every product list entry; `lookupField`, a string
   * `price` in one product's lookup only (the last product at the time, never the first), its list entry intact;
   * `lookupGone`, a 404 to the lookup of that listed product.
   */
  plant?: 'listField' | 'lookupField' | 'lookupGone';
}

export interface StoreStandIn extends StandIn {
  /** Records per collection now (e.g. `/products`). */
  counts(): Record<string, number>;
  /** `PUT`/`DELETE` requests aimed at a record that was not created through this server. */
  foreignWrites: string[];
  /** Operations classed `dangerous` that were called. */
  dangerousCalls: string[];
  /** Requests that carried a mock-only header. */
  mockHeaderRequests: string[];
  tooManyRequests: number;
}

export const STORE_RECORDS = join(import.meta.dirname, 'store-records.json');

/** The success answer's schema (the manifest's), resolved in the final document. */
function schemaOf(document: OpenApiDocument, route: Route): Record<string, unknown> | undefined {
  const schema = route.row.successSchema;
  return schema ? resolveRef<Record<string, unknown>>(document, schema as never) : undefined;
}

/** The single property an entry or answer is wrapped in (`{ product: {...} }`), if the schema has one. */
function wrapperOf(document: OpenApiDocument, schema: Record<string, unknown> | undefined): string | undefined {
  const object =
    schema?.type === 'array' ? resolveRef<Record<string, unknown>>(document, schema.items as never) : schema;
  const names = Object.keys((object?.properties ?? {}) as object);
  return names.length === 1 ? names[0] : undefined;
}

export async function startStoreStandIn(options: StoreStandInOptions): Promise<StoreStandIn> {
  const document = loadDocument('store');
  const route = router('store');
  const fixture = JSON.parse(readFileSync(STORE_RECORDS, 'utf8')) as Fixture;
  const collections = new Map(Object.entries(structuredClone(fixture.records)));
  for (const [name, extra] of Object.entries(structuredClone(options.records ?? {}))) {
    collections.set(name, [...(collections.get(name) ?? []), ...extra]);
  }
  const perSecond = options.perSecond ?? 20;
  const perMinute = options.perMinute ?? 800;
  const arrivals: number[] = [];
  const expected = `Basic ${Buffer.from(`${options.login}:${options.authToken}`).toString('base64')}`;
  const state = { dangerousCalls: [] as string[], mockHeaderRequests: [] as string[] };
  let tooManyRequests = 0;

  const collectionOf = (key: string) => collections.get(fixture.aliases[key] ?? key);
  const find = (key: string, value: string) =>
    collectionOf(key)?.find((r) => String(r.id) === value || r.code === value || r.email === value);
  const writes = storeWrites(collections, collectionOf, find, options.createAnswers);

  // The planted record: the last product now (never the first), whatever page of the list it is on.
  const plantedId = () => {
    const products = collections.get('/products') ?? [];
    return products.length > 1 ? products.at(-1)?.id : undefined;
  };
  const standIn = await serve(({ method, path, query: rawQuery, headers, body }, log) => {
    const now = Date.now();
    while ((arrivals[0] ?? now) <= now - 60_000) arrivals.shift();
    const lastSecond = arrivals.filter((t) => t > now - 1_000).length;
    const rateHeaders = (used: number) => ({
      'Jumpseller-PerSecondRateLimit-Limit': String(perSecond),
      'Jumpseller-PerSecondRateLimit-Remaining': String(Math.max(0, perSecond - lastSecond - used)),
      'Jumpseller-PerMinuteRateLimit-Limit': String(perMinute),
      'Jumpseller-PerMinuteRateLimit-Remaining': String(Math.max(0, perMinute - arrivals.length - used)),
    });
    if (MOCK_ONLY_HEADERS.some((name) => name in headers)) state.mockHeaderRequests.push(`${method} ${path}`);
    if (lastSecond >= perSecond || arrivals.length >= perMinute) {
      tooManyRequests++;
      return {
        status: 429,
        body: { message: 'Too Many Requests' },
        headers: { ...rateHeaders(0), 'Retry-After': '1' },
      };
    }
    arrivals.push(now);
    const rate = rateHeaders(1);
    if (headers.authorization !== expected) return { status: 401, body: { message: 'Unauthorized' }, headers: rate };
    const found = route(method, path.replace(/^\/v1/, ''));
    if (!found) return { status: 404, body: { message: 'Not Found' }, headers: rate };
    log.operation = found.row.id;
    if (found.row.safety === 'dangerous') state.dangerousCalls.push(found.row.id);
    const badId = Object.entries(found.row.pathTypes ?? {}).some(
      ([name, type]) => ['integer', 'number'].includes(type.type) && !/^\d+$/.test(found.params[name] ?? ''),
    );
    if (badId) return { status: 404, body: { message: 'Not Found' }, headers: rate };
    const read = readQuery(options.mode ?? 'strict', found, rawQuery);
    if ('problem' in read) return { status: 400, body: { message: read.problem }, headers: rate };
    const query = read.query;

    const concrete = path.replace(/^\/v1/, '').replace(/\.json$/, '');
    const parent = concrete.slice(0, concrete.lastIndexOf('/'));
    const last = concrete.slice(concrete.lastIndexOf('/') + 1);
    const status = found.row.successStatus;
    const schema = schemaOf(document, found);
    const wrapper = wrapperOf(document, schema);
    const wrap = (record: StoreRecord) => (wrapper ? { [wrapper]: record } : record);
    const ok = (answer: unknown) => ({ status: Number(status), body: answer, headers: rate });
    const notFound = { status: 404, body: { message: 'Not Found' }, headers: rate };

    if (method === 'GET') {
      // Every record the path names on the way must exist: `/products/{id}/images` of no product is a 404.
      const template = found.template.replace(/\.json$/, '').split('/');
      const segments = concrete.split('/');
      for (const [i, segment] of template.entries()) {
        if (!/^\{[^}]+\}$/.test(segment) || i === template.length - 1 || template[i - 1] === 'after') continue;
        const prefix = segments.slice(0, i).join('/');
        if (collectionOf(prefix) && !find(prefix, decodeURIComponent(segments[i] ?? ''))) return notFound;
      }
      // A cursor (`/orders/after/{id}`): the records of the collection whose id is greater, as the vendor describes.
      const after = /^(\/[a-z_]+)\/after\/\{[^}]+\}$/.exec(found.template.replace(/\.json$/, ''));
      if (after && schema?.type === 'array') {
        const records = collections.get(after[1] as string) ?? [];
        const entryWrapper = wrapperOf(document, schema);
        const later = records.filter((r) => Number(r.id) > Number(last));
        return ok(later.map((r) => (entryWrapper ? { [entryWrapper]: r } : r)));
      }
      const properties = Object.keys((schema?.properties ?? {}) as object);
      if (properties.length === 1 && properties[0] === 'count') {
        return ok({ count: collectionOf(concrete.replace(/\/count$/, ''))?.length ?? 0 });
      }
      if (properties.length === 2 && properties.includes('count')) {
        // A search answer: `{ orders: [{ order }], count }`.
        const name = properties.find((p) => p !== 'count') as string;
        const items = schemaOf(document, found)?.properties as Record<string, Record<string, unknown>>;
        const entryWrapper = wrapperOf(document, resolveRef(document, items[name] as never));
        const records = collectionOf(`/${name}`) ?? [];
        return ok({ [name]: records.map((r) => (entryWrapper ? { [entryWrapper]: r } : r)), count: records.length });
      }
      if (schema?.type === 'array') {
        const records = collectionOf(concrete);
        // A lookup in a known collection whose answer is a list (a cart's lines): the record must exist.
        const lookup = /\{[^}]+\}$/.test(found.template.replace(/\.json$/, ''));
        if (!records && lookup && collectionOf(parent) && !find(parent, decodeURIComponent(last))) return notFound;
        // A lookup by id whose answer is a list, in a collection the store does not hold: no such record (a list
        // filtered by a path value, `/products/status/{status}`, stays a list, empty or not).
        const byId = /\{id\}$/.test(found.template.replace(/\.json$/, ''));
        if (!records && byId && !collectionOf(parent) && !fixture.singletons[found.row.id]) return notFound;
        if (!records) return fixture.singletons[found.row.id] ? ok(fixture.singletons[found.row.id]) : ok([]);
        let entries = records.map((record) => wrap(record));
        if (options.plant === 'listField' && concrete === '/products') {
          entries = records.map((record) => wrap({ ...record, price: String(record.price) }));
        }
        const limit = Number(query.get('limit') ?? 50);
        const page = Number(query.get('page') ?? 1);
        return ok(entries.slice((page - 1) * limit, page * limit));
      }
      if (fixture.singletons[found.row.id]) return ok(fixture.singletons[found.row.id]);
      const record = find(parent, decodeURIComponent(last));
      if (!record) return notFound;
      if (options.plant === 'lookupGone' && parent === '/products' && record.id === plantedId()) return notFound;
      if (options.plant === 'lookupField' && parent === '/products' && record.id === plantedId()) {
        return ok(wrap({ ...record, price: String(record.price) }));
      }
      return ok(wrap(record));
    }
    if (method === 'POST' && found.row.safety === 'read') {
      // A POST that only computes (fulfillment rates): an object body in, naming a real origin location.
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        return { status: 400, body: { message: 'Bad Request' }, headers: rate };
      }
      const location = (body as { rates?: { location_id?: unknown } }).rates?.location_id;
      if (!collectionOf('/locations')?.some((r) => String(r.id) === String(location))) {
        return { status: 422, body: { message: 'Location not found' }, headers: rate };
      }
      return ok(fixture.singletons[found.row.id] ?? []);
    }
    if (['POST', 'PUT', 'DELETE'].includes(method)) {
      const queryNames = Object.keys(found.row.query ?? {});
      const written = writes.answer({ method, path, concrete, query, body, wrapper, queryNames });
      if (!written) return notFound;
      return written.status === 'ok'
        ? ok(written.body)
        : { status: 400, body: { message: 'Bad Request' }, headers: rate };
    }
    return notFound;
  }, options.latencyMs);

  return {
    ...standIn,
    url: `${standIn.url}/v1`,
    counts: () => Object.fromEntries([...collections].map(([key, records]) => [key, records.length])),
    ...state,
    foreignWrites: writes.foreignWrites,
    get tooManyRequests() {
      return tooManyRequests;
    },
  };
}
