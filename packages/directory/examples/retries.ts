import { DirectoryClient } from '@agent-apis/directory';

// Up to 4 retries for every call of this client (the default is 2)…
const client = new DirectoryClient({ maxRetries: 4 });

// …or per call: this one fails at the first error.
const stats = await client.stats({ maxRetries: 0 });
console.log(`${stats.skills} skills, ${stats.tools} tools`);
