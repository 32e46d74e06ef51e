import { DirectoryClient } from '@agent-apis/directory';

const client = new DirectoryClient();

// Every official database server, fetched 50 per request as the loop goes on.
for await (const server of client.mcpServers.list({ category: 'databases', official: true, limit: 50 })) {
  console.log(`${server.owner}/${server.repo} ★${server.stars}`);
}

// At most 30 community skills; `max` is required so a listing can never run away.
const skills = await client.skills.list({ source: 'community' }).toArray({ max: 30 });
console.log(`${skills.length} community skills`);

// Whole pages, with the envelope's counts.
for await (const page of client.plugins.list({ ecosystem: 'claude-code', limit: 2 }).pages()) {
  console.log(`plugins ${page.offset + 1}–${page.offset + page.count} of ${page.total}`);
}
