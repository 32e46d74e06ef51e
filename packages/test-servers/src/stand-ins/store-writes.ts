/**
 * The store stand-in's write endpoints (POST, PUT, DELETE), kept apart from its reads: records are created,
 * updated and deleted for real (a record's children go with it, as a product's variants do), and every write that
 * touches a record not created through this server is logged, so a test can assert that a live run wrote only to
 * what it created itself: an update or delete of such a record, or a record created under it.
 */
export type StoreRecord = Record<string, unknown>;

export interface WriteRequest {
  method: string;
  /** The request path as received (for the log). */
  path: string;
  /** The record path without base path and `.json` (`/products/20001/variants`). */
  concrete: string;
  query: URLSearchParams;
  body: unknown;
  /** The single property the operation wraps its record in, if any. */
  wrapper: string | undefined;
  /** Query parameters the operation declares (an update may take its change there). */
  queryNames: string[];
}

export interface StoreWrites {
  /** `METHOD path` of every write touching a record not created through this server. */
  foreignWrites: string[];
  /** The answer to a write, or undefined when the record does not exist (404). */
  answer(request: WriteRequest): { status: 'ok' | 'bad-request'; body?: unknown } | undefined;
}

const PAGING = new Set(['limit', 'page']);

export function storeWrites(
  collections: Map<string, StoreRecord[]>,
  collectionOf: (collection: string) => StoreRecord[] | undefined,
  find: (collection: string, value: string) => StoreRecord | undefined,
  /** A hostile store: the create answer of these collections names this other record instead of the new one. */
  createAnswers: Readonly<Record<string, number>> = {},
): StoreWrites {
  const created = new Set<string>();
  const foreignWrites: string[] = [];
  let nextId = 20_000;

  const wrapped = (request: WriteRequest) =>
    (request.wrapper && request.body && typeof request.body === 'object'
      ? (request.body as StoreRecord)[request.wrapper]
      : request.body) as StoreRecord | undefined;
  const wrap = (request: WriteRequest, record: StoreRecord) =>
    request.wrapper ? { [request.wrapper]: record } : record;
  /** The record a collection path lives under (`/products/1101` for `/products/1101/variants`), if any. */
  const ownerOf = (collection: string) => {
    const parts = collection.split('/');
    return parts.length > 3 ? parts.slice(0, -1).join('/') : undefined;
  };

  return {
    foreignWrites,
    answer(request) {
      const { method, concrete } = request;
      if (method === 'POST') {
        const fields = wrapped(request);
        if (!fields || typeof fields !== 'object') return { status: 'bad-request' };
        const owner = ownerOf(concrete);
        if (owner && !created.has(owner)) foreignWrites.push(`${method} ${request.path}`);
        const record = { ...fields, id: nextId++ };
        collections.set(concrete, [...(collections.get(concrete) ?? []), record]);
        created.add(`${concrete}/${record.id}`);
        const other =
          createAnswers[concrete] === undefined ? undefined : find(concrete, String(createAnswers[concrete]));
        return { status: 'ok', body: wrap(request, other ?? record) };
      }
      const parent = concrete.slice(0, concrete.lastIndexOf('/'));
      const last = decodeURIComponent(concrete.slice(concrete.lastIndexOf('/') + 1));
      const record = find(parent, last);
      if (!record) return undefined;
      const key = `${parent}/${record.id}`;
      if (!created.has(key)) foreignWrites.push(`${method} ${request.path}`);
      if (method === 'DELETE') {
        const records = collectionOf(parent) ?? [];
        records.splice(records.indexOf(record), 1);
        for (const name of [...collections.keys()]) if (name.startsWith(`${key}/`)) collections.delete(name);
        return { status: 'ok', body: JSON.stringify('Deleted') };
      }
      // An update takes the fields of its body and any declared query parameter (an image's `position`).
      const fromQuery = Object.fromEntries(
        request.queryNames
          .filter((name) => !PAGING.has(name) && request.query.has(name))
          .map((name) => [
            name,
            Number.isNaN(Number(request.query.get(name))) ? request.query.get(name) : Number(request.query.get(name)),
          ]),
      );
      Object.assign(record, wrapped(request) ?? {}, fromQuery, { id: record.id });
      return { status: 'ok', body: wrap(request, record) };
    },
  };
}
