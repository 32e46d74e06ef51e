/**
 * The broken × verdict table of the store's agent tool server: the contract suite in live mode (as an operator runs
 * it) against loopback tool servers broken one way each (`@agent-apis/test-servers/tool-server`, `broken`), and one
 * conforming. A tool counts as verified only when it was called and its answer checked, and every table of the run
 * (the state table of `run.json`, `coverage.json`, `coverage.md`, the HTML page) and its headline give the same
 * figures.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storeTools } from '@agent-apis/specs/mcp-drift-fixtures';
import { type LocalToolServerOptions, startToolServer } from '@agent-apis/test-servers/tool-server';
import { describe, expect, it } from 'vitest';
import { runContractLive } from '../engine/live-run.ts';
import type { ServiceSummary } from '../evidence/coverage.ts';

const LOGIN = 'tool-login-3f9a';
const TOKEN = 'tool-token-81c2e7';

interface Night {
  state: string;
  verified: number;
  total: number;
  reasons: string[];
  headline: string;
  /** What each report says of the store tool server's verified tools, as `verified/total`. */
  figures: Record<'headline' | 'states' | 'coverage.json' | 'coverage.md' | 'report.html', string>;
  output: string;
}

/** One live run of the tool-server suite against a store tool server started with `options`. */
async function night(
  options: Omit<LocalToolServerOptions, 'tools'>,
  env: Record<string, string> = {},
  token = TOKEN,
): Promise<Night> {
  const server = await startToolServer({
    tools: storeTools(),
    credentials: { 'X-LOGIN-KEY': LOGIN, 'X-AUTH-TOKEN': TOKEN },
    ...options,
  });
  try {
    const run = await runContractLive(
      {
        STORE_MCP_URL: server.url,
        STORE_LOGIN: LOGIN,
        STORE_AUTH_TOKEN: token,
        CONTRACT_TOOL_CALLS_PER_SECOND: '100',
        ...env,
      },
      ['src/checks/mcp.contract.test.ts'],
    );
    const dir = join(run.reports, 'live');
    const states = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as {
      headline: string;
      services: { service: string; state: string; verified: number; total: number; reasons: string[] }[];
    };
    const summaries = JSON.parse(await readFile(join(dir, 'coverage.json'), 'utf8')) as ServiceSummary[];
    const md = await readFile(join(dir, 'coverage.md'), 'utf8');
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    const store = states.services.find((s) => s.service === 'store-mcp');
    const summary = summaries.find((s) => s.service === 'store-mcp');
    if (!store || !summary) throw new Error(`no store-mcp in the reports:\n${run.output}`);
    // The headline sums every service; the directory's tool server is not configured, so 0 of its tools.
    const directory = states.services.find((s) => s.service === 'directory-mcp');
    const headline = /(\d+) of (\d+) operations verified/.exec(states.headline);
    const mdRow = md.split('\n').find((line) => /^\| store-mcp +\| live +\|/.test(line));
    const htmlRow = /<tr data-service="store-mcp">.*?<td>(\d+) of (\d+)<\/td>/.exec(html);
    return {
      state: store.state,
      verified: store.verified,
      total: store.total,
      reasons: store.reasons,
      headline: states.headline,
      figures: {
        headline: headline
          ? `${Number(headline[1]) - (directory?.verified ?? 0)}/${Number(headline[2]) - (directory?.total ?? 0)}`
          : '?',
        states: `${store.verified}/${store.total}`,
        'coverage.json': `${summary.toolsExercised}/${summary.toolsTotal}`,
        'coverage.md': mdRow?.split('|')[5]?.trim() ?? '?',
        'report.html': htmlRow ? `${htmlRow[1]}/${htmlRow[2]}` : '?',
      },
      output: run.output,
    };
  } finally {
    await server.close();
  }
}

/** The same figure in every report. */
function expectAgreement(n: Night, expected: string) {
  expect(n.figures, n.output).toEqual({
    headline: expected,
    states: expected,
    'coverage.json': expected,
    'coverage.md': expected,
    'report.html': expected,
  });
}

const rows: string[] = [];

describe('the store tool server, broken × verdict (live mode, loopback tool servers)', () => {
  it('conforming: green, the 12 read tools verified (called, answer checked), the 8 write/dangerous not run', async () => {
    const n = await night({});
    rows.push(`conforming | ${n.state} | ${JSON.stringify(n.figures)}`);
    expect(n.state, n.output).toBe('green');
    expectAgreement(n, '12/20');
  });

  it('wrong token: failed, no tool verified, the refused handshake named once as the reason', async () => {
    const n = await night({}, {}, 'revoked-token-0000');
    rows.push(`wrong token | ${n.state} | ${JSON.stringify(n.figures)} | ${n.reasons[0]}`);
    expect(n.state).toBe('failed');
    expectAgreement(n, '0/20');
    expect(n.reasons.join('\n')).toMatch(/401/);
    expect(n.reasons).toContainEqual(expect.stringMatching(/^20 tools not verified: not called: the handshake/));
    expect(n.output).not.toContain('revoked-token-0000');
  });

  it('a tool gone: failed on breaking drift, the missing tool not verified', async () => {
    const n = await night({ broken: { without: ['get_store_info'] } });
    rows.push(`tool gone | ${n.state} | ${JSON.stringify(n.figures)} | ${n.reasons[0]}`);
    expect(n.state).toBe('failed');
    expect(n.reasons[0]).toMatch(/get_store_info tool: tool removed/);
    expectAgreement(n, '11/20');
  });

  it('a tool answering an error: failed, that tool and the lookup fed by it not verified', async () => {
    const n = await night({ broken: { failing: ['list_products'] } });
    rows.push(`tool answers an error | ${n.state} | ${JSON.stringify(n.figures)} | ${n.reasons[0]}`);
    expect(n.state).toBe('failed');
    expect(n.reasons[0]).toMatch(/^list_products call:required: tool error/);
    expectAgreement(n, '10/20');
  });

  it('accepting out-of-range input: a warning (green), red under CONTRACT_STRICT=1, same figures', async () => {
    const lenient = await night({ broken: { lenient: true } });
    rows.push(`accepts out-of-range | ${lenient.state} | ${JSON.stringify(lenient.figures)}`);
    expect(lenient.state, lenient.output).toBe('green');
    expect(lenient.output).toMatch(/store-mcp\s+\S+\s+invalid:server: the server accepted arguments\./);
    expectAgreement(lenient, '12/20');
    const strict = await night({ broken: { lenient: true } }, { CONTRACT_STRICT: '1' });
    rows.push(
      `accepts out-of-range, STRICT | ${strict.state} | ${JSON.stringify(strict.figures)} | ${strict.reasons[0]}`,
    );
    expect(strict.state).toBe('failed');
    expect(strict.reasons[0]).toMatch(/^CONTRACT_STRICT=1: \d+ warning\(s\)/);
    expectAgreement(strict, '12/20');
    console.log(`broken × verdict (store tool server):\n${rows.join('\n')}`);
  });
});
