import { DirectoryClient } from '@agent-apis/directory';

const client = new DirectoryClient();

// Every operation of the spec, by operationId, with the generated request and response types.
const plugin = await client.api.getPlugin({ path: { marketplace: 'official', plugin: 'linter' }, timeout: 5_000 });
console.log(`${plugin.name}: ${plugin.installCommand}`);

const guide = await client.llmsTxt();
console.log(guide.split('\n')[0]);
