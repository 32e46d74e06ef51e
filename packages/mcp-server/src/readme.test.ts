/**
 * The README's code is the files in `examples/`: every fenced example equals its file and runs against the
 * stand-ins of the three APIs (configured through the clients' environment variables, as a user would), printing
 * what the test expects. The client configuration snippets (JSON) parse and start this package's bin.
 */
import { readFile } from 'node:fs/promises';
import { expectReadmeToEmbedEveryExample, runExample } from '@agent-apis/test-utils/readme';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_DANGEROUS_ENV_VAR, ALLOW_WRITES_ENV_VAR } from './safety.js';
import { type Mocks, startMocks } from './test-support.js';

const packageRoot = new URL('../', import.meta.url);

describe('README', () => {
  it('embeds every example file verbatim, each exactly once', async () => {
    await expectReadmeToEmbedEveryExample(packageRoot);
  });

  it('gives client configurations that parse, run this package and name only variables something reads', async () => {
    const readme = await readFile(new URL('README.md', packageRoot), 'utf8');
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1] ?? ''));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const known = new Set([
      'STORE_LOGIN',
      'STORE_AUTH_TOKEN',
      'STORE_ACCESS_TOKEN',
      'STORE_BASE_URL',
      'ENTROPY0_API_KEY',
      'TRUST_BASE_URL',
      'DIRECTORY_BASE_URL',
      ALLOW_WRITES_ENV_VAR,
      ALLOW_DANGEROUS_ENV_VAR,
    ]);
    for (const block of blocks) {
      const servers = (block.mcpServers ?? block.servers) as Record<
        string,
        { command: string; args: string[]; env?: object }
      >;
      const entry = servers['agent-apis'];
      expect(entry?.command).toBe('npx');
      expect(entry?.args).toContain('@agent-apis/mcp-server');
      for (const name of Object.keys(entry?.env ?? {})) expect(known, name).toContain(name);
    }
  });
});

describe('README examples, run against the stand-ins', () => {
  let mocks: Mocks;
  const saved = { ...process.env };
  beforeAll(async () => {
    mocks = await startMocks();
    Object.assign(process.env, {
      DIRECTORY_BASE_URL: mocks.directory.url,
      STORE_BASE_URL: mocks.store.url,
      STORE_LOGIN: mocks.credentials.login,
      STORE_AUTH_TOKEN: mocks.credentials.authToken,
      TRUST_BASE_URL: mocks.trust.url,
      ENTROPY0_API_KEY: mocks.credentials.apiKey,
    });
  });
  afterAll(async () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    await mocks?.close();
  });

  it('in-process', async () => {
    const printed = await runExample(packageRoot, 'in-process');
    expect(printed).toEqual([
      expect.stringMatching(/^\{"data":\{"results":\[\{"name":"[^"]+","url":"https:[^"]+"\}/),
      expect.stringMatching(/^\{"data":\{"decision":\{"recommended_action":"\w+"\}\}\}$/),
      expect.stringMatching(
        /^true Refused: store\.createProduct \(POST \/products\.json\) is a write .* --allow-writes=store/,
      ),
    ]);
    expect(mocks.store.requests).toEqual([]);
  });

  it('http', async () => {
    const before = mocks.store.counts()['/products'];
    expect(await runExample(packageRoot, 'http')).toEqual(['created Mug', 'deleted true']);
    expect(mocks.store.counts()['/products']).toBe(before);
    expect(mocks.store.requests.map((request) => request.operation)).toEqual(['createProduct', 'deleteProduct']);
  });
});
