import { consumerTypeErrors } from '@agent-apis/test-utils/consumer-types';
import { describe, expect, it } from 'vitest';

/** A consumer's program: compiles only if the published types need no DOM lib and give every call one surface. */
const CONSUMER = `import { DirectoryClient } from '@agent-apis/directory';

const directory = new DirectoryClient({ baseUrl: 'http://127.0.0.1:4010' });

export async function run(): Promise<string[]> {
  const lines: string[] = [];
  const { data, response } = await directory.search({ q: 'github', limit: 5 }).withResponse();
  lines.push(\`\${response.status} \${data.query}\`);
  const stats = await directory.stats().asResponse();
  lines.push(String(stats.headers.get('cache-control')));
  for await (const page of directory.mcpServers.list({ limit: 10 }).pages()) lines.push(String(page.total));
  const server = await directory.mcpServers.get({ owner: 'octo', repo: 'server' }, { headers: { 'x-trace': '1' } });
  lines.push(server.title);
  return lines;
}
`;

describe('the published types, as a Node-only consumer compiles them', () => {
  it('need no DOM lib (lib ES2023, types node, skipLibCheck false) and give every method .withResponse()/.asResponse()', {
    // A backstop against a hang: a whole tsc run takes minutes on a loaded machine.
    timeout: 300_000,
  }, () => {
    expect(consumerTypeErrors(new URL('../', import.meta.url), CONSUMER)).toEqual([]);
  });
});
