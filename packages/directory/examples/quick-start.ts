import { DirectoryClient } from '@agent-apis/directory';

// The base URL differs per environment: the client reads DIRECTORY_BASE_URL (or takes the `baseUrl` option).
const client = new DirectoryClient();

const found = await client.search({ q: 'github', type: 'mcp', limit: 5 });
for (const hit of found.results) console.log(`${hit.name} (${hit.popularity}): ${hit.url}`);

const server = await client.mcpServers.get({ owner: 'github', repo: 'github-mcp-server' });
console.log(`install with: ${server.installCommand}`);
