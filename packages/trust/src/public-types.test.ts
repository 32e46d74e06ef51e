import { consumerTypeErrors } from '@agent-apis/test-utils/consumer-types';
import { describe, expect, it } from 'vitest';

/** A consumer's program: compiles only if the published types need no DOM lib and give every call one surface. */
const CONSUMER = `import { TrustClient } from '@agent-apis/trust';

const trust = new TrustClient({ apiKey: 'sk_ent0_example', defaultHeaders: { 'x-app': 'agent' } });

export async function run(): Promise<string[]> {
  const { data, response } = await trust.decide('example.com', undefined, { headers: { 'x-trace': '1' } }).withResponse();
  const raw = await trust.api.decide({ body: { target: { type: 'domain', value: 'example.com' } } }).asResponse();
  const guarded = await trust.guard('https://example.com/page');
  return [data.action, String(response.status), String(raw.status), guarded.action];
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
