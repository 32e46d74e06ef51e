/**
 * Tool drift against a live-style tool server on loopback (`@agent-apis/test-servers/tool-server`): the drift check reads the list over
 * streamable HTTP, and the contract suite in live mode fails on breaking drift. The drift classification itself is
 * tested in `specs/src/mcp-drift.test.ts`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkToolDrift } from '@agent-apis/specs/mcp-drift';
import { liveStyleList, pinnedStore, storeTools } from '@agent-apis/specs/mcp-drift-fixtures';
import type { McpTool } from '@agent-apis/specs/mcp-tools';
import { MIRROR } from '@agent-apis/specs/test-support';
import { startToolServer } from '@agent-apis/test-servers/tool-server';
import { describe, expect, it } from 'vitest';
import { runContractLive } from '../engine/live-run.ts';

describe('tool drift read from a live-style server', () => {
  it('reads the live list over streamable HTTP from a configured server, sending its credentials', async () => {
    const credentials = { 'X-LOGIN-KEY': 'live-login-key-5', 'X-AUTH-TOKEN': 'live-auth-token-5' };
    const server = await startToolServer({ tools: liveStyleList(), credentials });
    try {
      const env = { STORE_MCP_URL: server.url, STORE_MCP_LOGIN_KEY: 'live-login-key-5', STORE_MCP_AUTH_TOKEN: '' };
      const refused = await checkToolDrift('store', { mirror: MIRROR, env: { ...env, STORE_MCP_AUTH_TOKEN: 'wrong' } });
      expect(refused.error).toBe(`store: ${server.url} answered HTTP 401 Unauthorized to initialize`);
      const drift = await checkToolDrift('store', {
        mirror: MIRROR,
        env: { ...env, STORE_MCP_AUTH_TOKEN: 'live-auth-token-5' },
      });
      expect(drift.currentOrigin).toBe(`${server.url} (tools/list)`);
      expect(drift.changes.filter((c) => c.breaking).map((c) => `${c.tool} ${c.where}`)).toEqual([
        'list_products arguments.limit',
      ]);
      expect(drift.changes.filter((c) => !c.breaking)).toHaveLength(4);
    } finally {
      await server.close();
    }
  });
});

describe('contract suite against live-style tool servers (CONTRACT_TARGET=live)', () => {
  const credentials = { STORE_MCP_LOGIN_KEY: 'live-login-key-4c1d', STORE_MCP_AUTH_TOKEN: 'live-auth-token-9a3e' };

  async function contractLive(
    tools: McpTool[],
    names = { login: 'STORE_MCP_LOGIN_KEY', token: 'STORE_MCP_AUTH_TOKEN' },
  ) {
    const server = await startToolServer({
      tools,
      credentials: { 'X-LOGIN-KEY': credentials.STORE_MCP_LOGIN_KEY, 'X-AUTH-TOKEN': credentials.STORE_MCP_AUTH_TOKEN },
    });
    try {
      return await runContractLive(
        {
          STORE_MCP_URL: server.url,
          [names.login]: credentials.STORE_MCP_LOGIN_KEY,
          [names.token]: credentials.STORE_MCP_AUTH_TOKEN,
          CONTRACT_TOOL_CALLS_PER_SECOND: '100',
        },
        ['src/checks/mcp.contract.test.ts'],
      );
    } finally {
      await server.close();
    }
  }

  it("runs the store tool server configured as the README says (STORE_LOGIN + STORE_AUTH_TOKEN, the clients' names)", async () => {
    const result = await contractLive(storeTools(), { login: 'STORE_LOGIN', token: 'STORE_AUTH_TOKEN' });
    expect(result.code, result.output).toBe(0);
    const summaries = JSON.parse(await readFile(join(result.reports, 'live', 'coverage.json'), 'utf8')) as {
      service: string;
      toolsExercised: number;
      skipped?: string;
    }[];
    const store = summaries.find((s) => s.service === 'store-mcp');
    expect(store?.skipped).toBeUndefined();
    expect(store?.toolsExercised).toBe(12);
    expect(result.output).not.toContain(credentials.STORE_MCP_AUTH_TOKEN);
  });

  it('fails on breaking drift, naming the tool, the argument and the change', async () => {
    const result = await contractLive(liveStyleList());
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('list_products arguments.limit: maximum changed: 100 → 50');
    expect(result.output).not.toContain(credentials.STORE_MCP_AUTH_TOKEN);
  });

  it('passes on additions only, calling the read-only tools and reporting the rest skipped', async () => {
    const readOnly = pinnedStore.list.tools.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name);
    const result = await contractLive([...storeTools(), ...liveStyleList().slice(20)]);
    expect(result.code, result.output).toBe(0);
    const coverage = await readFile(join(result.reports, 'live', 'coverage.json'), 'utf8');
    expect(coverage).not.toContain(credentials.STORE_MCP_AUTH_TOKEN);
    expect(coverage).not.toContain(credentials.STORE_MCP_LOGIN_KEY);
    const summaries = JSON.parse(coverage) as { service: string; toolsExercised: number; skipped?: string }[];
    expect(summaries.find((s) => s.service === 'store-mcp')).toMatchObject({ toolsExercised: readOnly.length });
    expect(readOnly).toHaveLength(12);
    expect(summaries.find((s) => s.service === 'directory-mcp')?.skipped).toBe(
      'no address (DIRECTORY_MCP_URL not set)',
    );
    const store = JSON.parse(await readFile(join(result.reports, 'live', 'coverage-store-mcp.json'), 'utf8')) as {
      entries: { operation: string; check: string; outcome: string; note?: string }[];
    };
    expect(store.entries.find((e) => e.operation === 'tools/list')?.note).toMatch(/^4 change\(s\), none breaking/);
    expect(store.entries.find((e) => e.operation === 'delete_page' && e.check === 'call:required')).toMatchObject({
      outcome: 'skipped',
      note: expect.stringMatching(/^write tool/),
    });
  });
});
