import { DirectoryClient, HttpCache } from '@agent-apis/directory';

// Caching is on by default: while a response is fresh (Cache-Control: s-maxage or max-age) the same GET is
// answered from memory; once stale, it is revalidated with If-None-Match and a 304 reuses the stored body.
const client = new DirectoryClient();
await client.categories();
const again = await client.categories(); // no request while the first answer is fresh
console.log(`${again.skills.length} skill categories`);

// Share one cache between clients, or size it (sharedMaxAge: honour s-maxage, as the client's own cache does for
// the keyless, public directory)…
const shared = new HttpCache({ maxEntries: 1_000, sharedMaxAge: true });
const first = new DirectoryClient({ cache: shared });
const second = new DirectoryClient({ cache: shared });
await first.stats();
await second.stats();
console.log(`${shared.size} response(s) cached`);

// …or turn it off.
const uncached = new DirectoryClient({ cache: false });
await uncached.stats();
