/**
 * A program that uses the published packages the way an application would. The consumer test installs the
 * packed tarballs next to it and runs it against Prism mocks; base URLs and credentials come from the
 * environment, as the clients read them there by default. It prints what it got as one line of JSON.
 */
import { AgentApiError, RequestValidationError } from '@agent-apis/core';
import { DirectoryClient } from '@agent-apis/directory';
import { StoreClient } from '@agent-apis/store';
import { TrustClient } from '@agent-apis/trust';

const directory = new DirectoryClient({ validateResponses: true });
const trust = new TrustClient({ validateResponses: true });
const store = new StoreClient({ validateResponses: true });

const servers = await directory.mcpServers.list({ limit: 20 }).toArray({ max: 50 });
const decision = await trust.decide('github.com');
const products = await store.api.listProducts({ query: { limit: 5 } });

// An error raised inside the directory package is an instance of the class the application imports from
// @agent-apis/core: the installed packages share one copy of it.
let refusedField: string | undefined;
try {
  await directory.search({ q: 'github', limit: 500 });
} catch (error) {
  if (!(error instanceof RequestValidationError && error instanceof AgentApiError)) throw error;
  refusedField = error.field;
}

const summary = {
  servers: servers.map((server) => `${server.owner}/${server.repo}`),
  decision: { requestId: decision.result.request_id, action: decision.action, shouldFetch: decision.shouldFetch },
  productIds: products.map(({ product }) => product?.id),
  refusedField,
};
console.log(JSON.stringify(summary));
