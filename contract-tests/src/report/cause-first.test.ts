/**
 * Cause first: a night whose token was revoked opens `report.html` and the nightly's section with the state of each
 * service and the 401 once, with what to do; the changes since last night come grouped, the per-operation lines
 * folded below. The page is opened in headless Chromium at 1280 × 800: no horizontal scroll, the cause visible
 * without scrolling. Screenshots of a conforming night and of the revoked-token night go to CONTRACT_SHOTS_DIR when
 * it is set.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '@agent-apis/test-utils/browser';
import { describe, expect, it } from 'vitest';
import type { OperationEvidence } from '../evidence/evidence.ts';
import { failure, operation, runFolder, serviceEvidence } from './evidence-fixtures.ts';
import { runSection } from './nightly.ts';
import { writeRunReports } from './run-report.ts';

const STORE_ENV = {
  STORE_BASE_URL: 'https://shop-7.example/v1',
  STORE_LOGIN: 'shop-login-7',
  STORE_AUTH_TOKEN: 'tok-revoked-31415926',
};

/** 78 reads: 20 lists sent with the credentials, 58 lookups fed by them. */
const LISTS = Array.from({ length: 20 }, (_, i) => `listThings${String(i).padStart(2, '0')}`);
const LOOKUPS = Array.from({ length: 58 }, (_, i) => `getThing${String(i).padStart(2, '0')}`);

function conforming(): OperationEvidence[] {
  return [
    ...LISTS.map((name) => operation(name, 'verified', { path: `/v1/${name}/with/a/long/path/segment.json` })),
    ...LOOKUPS.map((name) => operation(name, 'verified', { path: `/v1/things/{id}/${name}.json` })),
  ];
}

function revoked(): OperationEvidence[] {
  return [
    ...LISTS.map((name) =>
      operation(name, 'failed', {
        failures: [
          failure(`required: refused the run's credentials (401 to a request that carried them)`, {
            check: 'positive_data_acceptance',
            url: `$STORE_BASE_URL/${name}.json?login=[REDACTED]&authtoken=[REDACTED]`,
            reproduction: `curl -sS -X GET "$STORE_BASE_URL/${name}.json" -u "$STORE_LOGIN:$STORE_AUTH_TOKEN" --max-time 30 -H 'accept: application/json'`,
          }),
        ],
      }),
    ),
    ...LOOKUPS.map((name, i) =>
      operation(name, 'not-run', { reason: `its source ${LISTS[i % LISTS.length]} failed: no record to look up` }),
    ),
  ];
}

interface Seen {
  scrollWidth: number;
  causes: string[];
  causesBottom: number;
  groups: string[];
  states: string[];
}

/** The page at 1280 × 800 in Chromium: what it shows on top, whether it scrolls sideways, and a screenshot. */
async function look(html: string, shot?: string): Promise<Seen> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1280, height: 800 });
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { waitUntil: 'networkidle0' });
    // Every folded section open: the widest the page gets.
    const seen = (await tab.evaluate(`(() => {
      const text = (selector) => [...document.querySelectorAll(selector)].map((e) => e.textContent.trim());
      const causes = document.querySelector('#causes');
      const result = {
        causes: text('#causes li'),
        causesBottom: causes ? causes.getBoundingClientRect().bottom : 1e9,
        groups: text('#change-groups li'),
        states: text('#states li'),
      };
      for (const d of document.querySelectorAll('details')) d.open = true;
      result.scrollWidth = document.documentElement.scrollWidth;
      for (const d of document.querySelectorAll('details')) d.open = false;
      return result;
    })()`)) as Seen;
    if (shot) await tab.screenshot({ path: shot as `${string}.png` });
    return seen;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('cause first', () => {
  it('a revoked token: the state of each service, the 401 once with what to do, changes grouped, fits 1280 px', async () => {
    const history = await mkdtemp(join(tmpdir(), 'agent-apis-history-'));
    const env = { ...STORE_ENV, CONTRACT_HISTORY: history };
    const shots = process.env.CONTRACT_SHOTS_DIR;
    if (shots) await mkdir(shots, { recursive: true });

    const lastNight = serviceEvidence('store', conforming(), { startedAt: '2026-11-26T02:10:00.000Z' });
    const trust = serviceEvidence('trust', [operation('scanUrl', 'verified')]);
    const first = await runFolder([lastNight, trust]);
    const green = await writeRunReports(first, 'live', env, new Date('2026-11-26T02:40:00Z'));
    expect(green.exitCode).toBe(0);
    const greenSeen = await look(
      await readFile(join(first, 'report.html'), 'utf8'),
      shots && join(shots, 'report-conforming-night.png'),
    );
    expect(greenSeen.states).toEqual([
      expect.stringMatching(/^green store: green, 78 of 78 verified/),
      expect.any(String),
    ]);
    expect(greenSeen.causes).toEqual(['None: every service that ran is green.']);
    expect(greenSeen.scrollWidth).toBeLessThanOrEqual(1280);

    const tonight = serviceEvidence('store', revoked(), { startedAt: '2026-11-27T02:14:00.000Z' });
    const dir = await runFolder([tonight, trust]);
    const run = await writeRunReports(dir, 'live', env, new Date('2026-11-27T02:40:00Z'));
    expect(run.exitCode).toBe(1);
    expect(run.changes).toHaveLength(78);
    // One cause for the store, however many operations it stopped.
    expect(run.causes).toEqual([expect.objectContaining({ service: 'store', refused: 401, operations: LISTS })]);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    const seen = await look(html, shots && join(shots, 'report-revoked-token-night.png'));
    expect(seen.states[0]).toMatch(/^failed store: failed, 0 of 78 verified/);
    expect(seen.causes).toEqual([
      expect.stringMatching(
        /^store: HTTP 401: the service refused the run's credentials \(20 operations: listThings00, .*\)\. To do: check STORE_LOGIN \+ STORE_AUTH_TOKEN/,
      ),
    ]);
    expect(seen.groups).toEqual([
      'store: 78 verified last night: 20 failed and 58 not run tonight, all after a 401 at 02:14 UTC',
    ]);
    // Visible without scrolling, and the page never wider than the window, every fold open.
    expect(seen.causesBottom).toBeLessThanOrEqual(800);
    expect(seen.scrollWidth).toBeLessThanOrEqual(1280);
    // Above the first fold, the 401 is said once.
    const opening = html.slice(0, html.indexOf('<details')).replace(/<[^>]*>/g, ' ');
    expect(opening.match(/401/g)).toHaveLength(2); // the cause line and the grouped change
    expect(opening).not.toContain('verified last night, failed tonight');

    const section = runSection('Contract (live)', run, undefined);
    const top = section.slice(0, section.indexOf('<details'));
    expect(top).toContain('- 🔴 store: failed, 0 of 78 verified');
    expect(top).toContain(
      '- store: 78 verified last night: 20 failed and 58 not run tonight, all after a 401 at 02:14 UTC',
    );
    expect(top.match(/refused the run's credentials/g)).toHaveLength(1);
    expect(section).toContain('<details><summary>All 78 changes, one per operation</summary>');
    expect(section).not.toContain(STORE_ENV.STORE_AUTH_TOKEN);
  }, 60_000);
});
