/**
 * The run's HTML page opened in a real headless Chromium: what it shows (states, verdicts, the changes first, the
 * failure with record, URL and reproduction), and that hostile server text stays text: no element, no script, no
 * request beyond the page itself.
 */

import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '@agent-apis/test-utils/browser';
import { describe, expect, it } from 'vitest';
import { failure, operation, runFolder, serviceEvidence, storeNight } from './evidence-fixtures.ts';
import { writeRunReports } from './run-report.ts';

const PRODUCT = ['product.id', 'product.name', 'product.price'];

describe('the HTML report in Chromium', () => {
  it('shows states, verdicts, the changes first and the failure, with server text as text and nothing loaded', async () => {
    // Anything the page tries to load lands here (or at the page's own server) and is counted.
    const beacons: string[] = [];
    const beacon = createServer((request, response) => {
      beacons.push(request.url ?? '');
      response.end();
    });
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    const beaconUrl = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    const hostile = `<img src="${beaconUrl}/img"><script>window.pwned = 1</script><link rel="stylesheet" href="${beaconUrl}/css"> @octocat`;
    const env = {
      CONTRACT_HISTORY: await mkdtemp(join(tmpdir(), 'agent-apis-history-')),
      STORE_BASE_URL: 'https://shop:pw-s3cret@store.example/v1',
      STORE_AUTH_TOKEN: 'tok-abcdef123456',
    };
    await writeRunReports(await runFolder([storeNight(PRODUCT)]), 'live', env, new Date('2026-11-25T03:40:00Z'));
    const store = storeNight(['product.id', 'product.name']);
    store.operations.push(
      operation('getOrder', 'failed', {
        failures: [
          failure(`content type ${hostile} where application/json is promised`, {
            record: 'id=1101',
            url: 'https://shop:pw-s3cret@store.example/v1/orders/1101.json?authtoken=tok-abcdef123456',
            reproduction:
              'curl -u "$STORE_LOGIN:$STORE_AUTH_TOKEN" "https://shop:pw-s3cret@store.example/v1/orders/1101.json"',
          }),
        ],
      }),
    );
    const trust = serviceEvidence('trust', [], { skipped: 'no credentials (ENTROPY0_API_KEY not set)' });
    const dir = await runFolder([store, trust]);
    const run = await writeRunReports(dir, 'live', env, new Date('2026-11-26T03:40:00Z'));
    expect(run.exitCode).toBe(1);
    expect(run.failures).toEqual([
      expect.objectContaining({
        service: 'store',
        operation: 'getOrder',
        record: 'id=1101',
        url: '$STORE_BASE_URL/orders/1101.json?authtoken=[REDACTED]',
        reproduction: 'curl -u "$STORE_LOGIN:$STORE_AUTH_TOKEN" "$STORE_BASE_URL/orders/1101.json"',
      }),
    ]);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).not.toContain('pw-s3cret');
    expect(html).not.toContain('tok-abcdef123456');

    const requests: string[] = [];
    const page = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      tab.on('request', (request) => requests.push(request.url()));
      await tab.goto(pageUrl, { waitUntil: 'networkidle0' });
      const seen = (await tab.evaluate(`(() => {
        const text = (selector) => [...document.querySelectorAll(selector)].map((e) => e.textContent.trim());
        return {
          runState: document.querySelector('#run-state')?.textContent,
          states: text('#services [data-state]'),
          verdicts: text('tr[data-operation] [data-verdict]'),
          changes: text('#changes li'),
          goneField: document.querySelector('#changes li[data-field]')?.getAttribute('data-field'),
          changesBeforeServices: document.querySelector('#changes').compareDocumentPosition(document.querySelector('#services')) === Node.DOCUMENT_POSITION_FOLLOWING,
          failure: document.querySelector('tr[data-operation="getOrder"] .failure')?.textContent,
          repro: document.querySelector('.repro')?.textContent,
          strip: document.querySelectorAll('tr[data-operation="listProducts"] .cell').length,
          images: document.images.length,
          scripts: document.scripts.length,
          links: document.querySelectorAll('link, a, iframe, object, embed').length,
          pwned: window.pwned,
          body: document.body.innerText,
        };
      })()`)) as Record<string, unknown>;
      expect(seen.runState).toBe('failed');
      expect(seen.states).toEqual(['failed', 'skipped (not configured)']);
      expect(seen.verdicts).toEqual(['failed', 'verified', 'verified', 'verified']);
      expect(seen.goneField).toBe('product.price');
      expect(seen.changes).toEqual([
        expect.stringMatching(/^warning: store: field product\.price was in every record/),
      ]);
      expect(seen.changesBeforeServices).toBe(true);
      expect(seen.failure).toContain('record: id=1101');
      expect(seen.failure).toContain('URL: $STORE_BASE_URL/orders/1101.json?authtoken=[REDACTED]');
      expect(seen.repro).toBe('curl -u "$STORE_LOGIN:$STORE_AUTH_TOKEN" "$STORE_BASE_URL/orders/1101.json"');
      expect(seen.strip).toBe(2);
      // The hostile text is shown as text, and did nothing.
      expect(seen.failure).toContain(`<img src="${beaconUrl}/img"><script>window.pwned = 1</script>`);
      expect([seen.images, seen.scripts, seen.links, seen.pwned]).toEqual([0, 0, 0, undefined]);
      expect(seen.body).not.toContain('pw-s3cret');
      expect(requests).toEqual([pageUrl]);
      expect(beacons).toEqual([]);
    } finally {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
      await new Promise((resolve) => beacon.close(resolve));
    }
  });
});
