/**
 * The stand-ins answer what they were asked: the directory's search applies `q`, `type` and `limit`; trust echoes
 * the interaction and policy of the call (the spec's default policy when none) and holds a score batch to the
 * spec's `maxItems` when strict. Plain HTTP, as any client would send it.
 */
import { readFinalSpec } from '@agent-apis/test-utils/final-specs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDirectoryStandIn } from './directory.ts';
import type { StandIn } from './server.ts';
import { startTrustStandIn } from './trust.ts';

const KEY = 'sk_standin_answers';
const running: StandIn[] = [];
afterAll(async () => {
  await Promise.all(running.map((standIn) => standIn.close()));
});

interface SearchBody {
  query: string;
  type: string;
  count: number;
  results: { type: string; name: string }[];
}

describe('directory stand-in: search', () => {
  let base = '';
  beforeAll(async () => {
    const standIn = await startDirectoryStandIn();
    running.push(standIn);
    base = standIn.url;
  });
  const search = async (query: string): Promise<SearchBody> => {
    const response = await fetch(`${base}/api/search?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as SearchBody;
  };

  it('type=skill answers skills only, and limit caps them', async () => {
    const all = await search('q=e&type=skill');
    expect(all.results.length).toBeGreaterThan(1);
    expect(new Set(all.results.map((r) => r.type))).toEqual(new Set(['skill']));
    const one = await search('q=e&type=skill&limit=1');
    expect(one).toMatchObject({ type: 'skill', count: 1 });
    expect(one.results).toEqual([all.results[0]]);
  });

  it('q filters every dataset; type=all mixes the kinds, limit applies per type', async () => {
    const sql = await search('q=sql');
    expect(sql.results.map((r) => `${r.type}:${r.name}`).sort()).toEqual([
      'mcp_server:Postgres query tools',
      'mcp_server:SQLite explorer',
      'skill:SQL review',
    ]);
    const capped = await search('q=sql&limit=1');
    expect(capped.results.map((r) => r.type).sort()).toEqual(['mcp_server', 'skill']);
    const plugins = await search('q=lint&type=plugin');
    expect(plugins.results.map((r) => r.name).sort()).toEqual(['Lint helper', 'Linter']);
  });

  it('a strict stand-in refuses a limit outside the spec (1 to 25), a lenient one clamps it', async () => {
    expect((await fetch(`${base}/api/search?q=sql&limit=26`)).status).toBe(400);
    const lenient = await startDirectoryStandIn({ mode: 'lenient' });
    running.push(lenient);
    const response = await fetch(`${lenient.url}/api/search?q=e&type=skill&limit=0`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as SearchBody).results).toHaveLength(1);
  });
});

describe('trust stand-in: what was asked comes back', () => {
  let base = '';
  beforeAll(async () => {
    const standIn = await startTrustStandIn({ apiKey: KEY });
    running.push(standIn);
    base = standIn.url;
  });
  const post = (path: string, body: unknown, url = base) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify(body),
    });

  it('echoes the interaction and the policy it was sent', async () => {
    const response = await post('/v1/decide', {
      target: { type: 'domain', value: 'github.com' },
      interaction: { kind: 'submit_credentials', mode: 'privileged', sensitivity: 'critical' },
      policy: { profile: 'strict' },
    });
    expect(response.status).toBe(200);
    const decision = (await response.json()) as { interaction: unknown; policy_applied: { profile: string } };
    expect(decision.interaction).toEqual({ kind: 'submit_credentials', mode: 'privileged', sensitivity: 'critical' });
    expect(decision.policy_applied.profile).toBe('strict');
  });

  it("without a policy, the spec's default profile; without an interaction, what the SDKs send", async () => {
    const spec = await readFinalSpec<{
      components: { schemas: { Policy: { properties: { profile: { default: string } } } } };
    }>('trust');
    const response = await post('/v1/decide', { target: { type: 'domain', value: 'example.com' } });
    const decision = (await response.json()) as { interaction: unknown; policy_applied: { profile: string } };
    expect(decision.policy_applied.profile).toBe(spec.components.schemas.Policy.properties.profile.default);
    expect(decision.interaction).toEqual({ kind: 'fetch', mode: 'read_only', sensitivity: 'medium' });
  });

  it('a batch decision echoes each request its own context', async () => {
    const response = await post('/v1/decide/batch', {
      requests: [
        { target: { type: 'domain', value: 'a.example' }, policy: { profile: 'critical' } },
        { target: { type: 'domain', value: 'b.example' }, interaction: { kind: 'navigate' } },
      ],
    });
    const { results } = (await response.json()) as {
      results: { interaction: { kind: string }; policy_applied: { profile: string } }[];
    };
    expect(results.map((r) => [r.interaction.kind, r.policy_applied.profile])).toEqual([
      ['fetch', 'critical'],
      ['navigate', 'balanced'],
    ]);
  });

  it("a score batch over the spec's maxItems is a 400 when strict, scored whole when lenient", async () => {
    const spec = await readFinalSpec<{
      components: { schemas: { DomainScoreBatchRequest: { properties: { domains: { maxItems: number } } } } };
    }>('trust');
    const max = spec.components.schemas.DomainScoreBatchRequest.properties.domains.maxItems;
    const domains = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.example`);
    expect((await post('/v1/domain/score/batch', { domains: domains(max) })).status).toBe(200);
    const over = await post('/v1/domain/score/batch', { domains: domains(max + 1) });
    expect(over.status).toBe(400);
    expect(JSON.stringify(await over.json())).toContain(`at most ${max}`);
    const lenient = await startTrustStandIn({ apiKey: KEY, mode: 'lenient' });
    running.push(lenient);
    const accepted = await post('/v1/domain/score/batch', { domains: domains(max + 1) }, lenient.url);
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { results: unknown[] }).results).toHaveLength(max + 1);
  });
});
