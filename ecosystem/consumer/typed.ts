/**
 * The consumer's type check: every entry point of every package imported and used with its types, compiled by the
 * ecosystem test under `moduleResolution` `nodenext` and `bundler` with the strictest flags (`tsconfig.*.json`);
 * the `bundler` check skips the packages' declaration files, which the `nodenext` one checks (`skipLibCheck: false`).
 */

import type { AgentApiError as ErrorsEntryError } from '@agent-apis/core';
import { AgentApiError, RequestValidationError } from '@agent-apis/core';
import { DirectoryClient } from '@agent-apis/directory';
import * as directoryMsw from '@agent-apis/directory/msw';
import * as directorySchemas from '@agent-apis/directory/schemas';
import * as directoryValidators from '@agent-apis/directory/validators';
import { DirectoryTools, StoreTools } from '@agent-apis/mcp';
import { NotFoundError, StoreClient } from '@agent-apis/store';
import * as storeMsw from '@agent-apis/store/msw';
import * as storeSchemas from '@agent-apis/store/schemas';
import * as storeValidators from '@agent-apis/store/validators';
import * as webhooks from '@agent-apis/store/webhooks';
import { TrustClient } from '@agent-apis/trust';
import * as trustMsw from '@agent-apis/trust/msw';
import * as trustSchemas from '@agent-apis/trust/schemas';
import * as trustValidators from '@agent-apis/trust/validators';

export async function typedCalls(): Promise<string[]> {
  const directory = new DirectoryClient({ baseUrl: 'http://127.0.0.1:1' });
  const trust = new TrustClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_typed' });
  const store = new StoreClient({ baseUrl: 'http://127.0.0.1:1', login: 'typed', authToken: 'typed' });
  const tools = new DirectoryTools({ url: 'http://127.0.0.1:1/mcp' });
  const storeTools = new StoreTools({ url: 'http://127.0.0.1:1/mcp', loginKey: 'typed', authToken: 'typed' });

  const found = await directory.search({ q: 'weather', limit: 5 });
  const names: string[] = found.results.map((hit) => hit.name ?? '');
  const server = await directory.mcpServers.get({ owner: 'acme-labs', repo: 'weather-mcp' });
  const decision = await trust.decide('example.com');
  const guarded = await trust.guard('https://example.com/docs');
  const products = await store.products.list({ limit: 2 }).toArray({ max: 3 });
  const ids: number[] = products.flatMap((product) => (product.id === undefined ? [] : [product.id]));
  try {
    await store.products.get(1);
  } catch (error) {
    if (error instanceof NotFoundError) names.push(String(error.status));
    else if (error instanceof RequestValidationError) names.push(error.field);
    else if (error instanceof AgentApiError) names.push(error.message);
  }
  const base: typeof ErrorsEntryError = AgentApiError;
  const answer = await tools.searchMcpServers({ query: 'weather', limit: 2 });
  await Promise.all([tools.close(), storeTools.close()]);
  return [
    ...names,
    `${server.owner}/${server.repo}`,
    decision.action,
    guarded.action,
    ids.join(','),
    String(answer.content.length),
    base.name,
    ...[
      directoryMsw,
      storeMsw,
      trustMsw,
      directorySchemas,
      directoryValidators,
      storeSchemas,
      storeValidators,
      trustSchemas,
      trustValidators,
      webhooks,
    ].map((module) => String(Object.keys(module).length)),
  ];
}
