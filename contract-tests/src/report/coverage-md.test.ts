/**
 * coverage.md (and the JUnit and JSON next to it) from a coverage file whose notes carry hostile server text and a
 * base URL with `user:pw@`: the Markdown holds no HTML, link, image beacon or @mention, nothing holds the password,
 * and the state column never says "passed".
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { ServiceCoverage } from '../evidence/coverage.ts';
import { writeCoverageReports } from './coverage-md.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

it('writes server text into coverage.md as data, masked, with the state of each service', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agent-apis-coverage-md-'));
  vi.stubEnv('CONTRACT_HISTORY', await mkdtemp(join(tmpdir(), 'agent-apis-history-')));
  vi.stubEnv('STORE_BASE_URL', 'https://shop:pw-s3cret-42@store.example/v1');
  const hostile =
    'content type text/html <img src="https://beacon.example/p.png"> ![x](https://beacon.example/i.png) ' +
    '[docs](https://evil.example) @octocat fixes #1 at https://shop:pw-s3cret-42@store.example/v1/products.json';
  const store: ServiceCoverage = {
    service: 'store',
    mode: 'live',
    operations: ['listProducts', 'getProduct'],
    documentedErrors: {},
    entries: [
      { operation: 'listProducts', check: 'content_type_conformance', outcome: 'failed', note: hostile },
      { operation: 'getProduct', check: 'success:required', outcome: 'skipped', note: 'its source failed' },
    ],
  };
  await writeFile(join(dir, 'coverage-store.json'), JSON.stringify(store));
  await writeCoverageReports(dir, 'live');
  const md = await readFile(join(dir, 'coverage.md'), 'utf8');
  expect(md).toContain('| store | 🔴 failed |');
  expect(md).not.toMatch(/\bpassed\b(?! \|)/);
  expect(md).not.toMatch(/<img|<script/);
  expect(md).not.toMatch(/(^|[^\\])!\[/m);
  expect(md).not.toMatch(/(^|[^\\])\]\(/m);
  expect(md).not.toMatch(/@octocat/);
  expect(md).not.toMatch(/#1\b/);
  expect(md).not.toContain('https://beacon');
  expect(md).toContain('$STORE\\_BASE\\_URL/products.json');
  for (const file of ['coverage.md', 'coverage.json', 'coverage-junit.xml', 'run.json', 'report.html']) {
    expect(await readFile(join(dir, file), 'utf8'), file).not.toContain('pw-s3cret-42');
  }
});
