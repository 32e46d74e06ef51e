import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { diffService, runDrift, type ServiceDrift } from './diff.ts';
import { changesetText, writeChangeset } from './drift-changeset.ts';
import { bumpFor, type ChangeKind, type SpecChange } from './drift-classify.ts';
import { driftExitCode } from './drift-report.ts';
import { buildSpec } from './pipeline.ts';
import { SpecSourceError } from './source.ts';
import { MIRROR, scratchMirror, scratchSpecsRoot } from './test-support.ts';

// biome-ignore lint/suspicious/noExplicitAny: test edits walk raw upstream JSON
type Upstream = any;

/** An edit for scratchMirror: parse the upstream bytes, change them, serialise again. */
function edit(change: (document: Upstream) => void) {
  return (bytes: Buffer) => {
    const document = JSON.parse(bytes.toString('utf8'));
    change(document);
    return JSON.stringify(document);
  };
}

/** The fields of one tax, as returned by GET /taxes.json, POST /taxes.json and GET /taxes/{id}.json. */
const taxFields = (document: Upstream) => document.components.schemas.TaxFields.properties;

const of = (drift: ServiceDrift, kind: ChangeKind) => drift.changes.filter((change) => change.kind === kind);
const wheres = (changes: SpecChange[]) => changes.map((change) => change.where);

/** A scratch specs root whose .cache holds the pinned bytes of both fetched services, as after `specs:sync`. */
let root: string;
beforeAll(async () => {
  root = await scratchSpecsRoot();
  await Promise.all([buildSpec('store', { root, mirror: MIRROR }), buildSpec('directory', { root, mirror: MIRROR })]);
});

async function driftOf(service: 'store' | 'directory', change: (document: Upstream) => void): Promise<ServiceDrift> {
  const mirror = await scratchMirror({ [service]: edit(change) });
  const started = performance.now();
  const drift = await diffService(service, { root, mirror });
  console.log(`${service} diff: ${Math.round(performance.now() - started)} ms, ${drift.changes.length} change(s)`);
  return drift;
}

describe('diffService', () => {
  it.each(['store', 'directory'] as const)('%s: no drift while upstream serves the pinned bytes', async (service) => {
    const drift = await diffService(service, { root, mirror: MIRROR });
    expect(drift.drifted).toBe(false);
    expect(drift.currentSha256).toBe(drift.pinnedSha256);
    expect(drift.changes).toEqual([]);
    expect(drift.bump).toBeUndefined();
  });

  it('a pinned store spec with one response field removed is classified breaking; one with an optional field added is not', async () => {
    const removed = await driftOf('store', (document) => {
      delete taxFields(document).region;
    });
    expect(removed.drifted).toBe(true);
    expect(removed.basis).toBe('overlay');
    expect(removed.bump).toBe('major');
    const breaking = of(removed, 'breaking');
    expect(wheres(breaking)).toEqual(
      expect.arrayContaining([
        'GET /taxes/{id}.json response 200 response body: application/json property tax/region',
        'GET /taxes.json response 200 response body: application/json property items/tax/region',
      ]),
    );
    expect(breaking.every((change) => change.where.endsWith('/region'))).toBe(true);

    const added = await driftOf('store', (document) => {
      taxFields(document).vat_number = { type: 'string', description: 'VAT registration number' };
    });
    expect(added.drifted).toBe(true);
    expect(of(added, 'breaking')).toEqual([]);
    expect(added.bump).toBe('minor');
    expect(wheres(of(added, 'addition'))).toContain(
      'GET /taxes/{id}.json response 200 application/json body field tax.vat_number',
    );
  });

  it('store: a changed field type and a new required parameter are breaking, a new optional parameter is an addition', async () => {
    const drift = await driftOf('store', (document) => {
      taxFields(document).tax_amount.type = 'string';
      const list = document.paths['/taxes.json'].get;
      list.parameters = [
        ...(list.parameters ?? []),
        { name: 'country', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'region', in: 'query', required: false, schema: { type: 'string' } },
      ];
    });
    expect(drift.bump).toBe('major');
    const breaking = of(drift, 'breaking');
    expect(breaking).toContainEqual({
      kind: 'breaking',
      where: 'GET /taxes/{id}.json response 200 response body: application/json property tax/tax_amount',
      detail: expect.stringMatching(/^prevent response property type changes: /),
    });
    expect(breaking).toContainEqual({
      kind: 'breaking',
      where: 'GET /taxes.json query parameter: country',
      detail: expect.stringMatching(/^prevent new required query parameters: .*country/),
    });
    expect(wheres(breaking).some((where) => where.includes('parameter: region'))).toBe(false);
    expect(wheres(of(drift, 'addition'))).toContain('GET /taxes.json query parameter region');
  });

  it('store: an operation the overlay repairs is removed: breaking, compared without the stale overlay action', async () => {
    const drift = await driftOf('store', (document) => {
      delete document.paths['/taxes/{id}.json'];
    });
    expect(drift.basis).toBe('partial-overlay');
    expect(drift.staleOverlayActions).toEqual([expect.stringContaining("$.paths['/taxes/{id}.json'].get")]);
    expect(of(drift, 'breaking')).toEqual([
      { kind: 'breaking', where: 'GET /taxes/{id}.json', detail: expect.stringMatching(/^prevent operation removal/) },
    ]);
    expect(drift.bump).toBe('major');
  });

  it('directory (OpenAPI 3.1): a removed operation is breaking', async () => {
    const drift = await driftOf('directory', (document) => {
      delete document.paths['/api/stats'];
    });
    expect(drift.bump).toBe('major');
    expect(of(drift, 'breaking')).toEqual([
      { kind: 'breaking', where: 'GET /api/stats', detail: expect.stringMatching(/^prevent operation removal/) },
    ]);
  });

  it('directory: a new operation is an addition (minor), a changed description is a patch', async () => {
    const added = await driftOf('directory', (document) => {
      document.paths['/api/health'] = {
        get: { operationId: 'getHealth', responses: { '200': { description: 'The service is up.' } } },
      };
    });
    expect(added.changes).toEqual([{ kind: 'addition', where: 'GET /api/health', detail: 'added' }]);
    expect(added.bump).toBe('minor');

    const described = await driftOf('directory', (document) => {
      document.paths['/api/stats'].get.description = 'Totals per dataset, refreshed hourly.';
    });
    expect(described.changes.map((change) => change.kind)).toEqual(['other']);
    expect(described.changes[0]?.where).toMatch(/^GET \/api\/stats/);
    expect(described.bump).toBe('patch');
  });

  it('directory: a new field or header named like a documentation keyword is still an addition', async () => {
    const drift = await driftOf('directory', (document) => {
      document.components.schemas.Stats.properties.description = { type: 'string' };
      document.paths['/api/stats'].get.responses['200'].headers['x-stats-age'] = { schema: { type: 'integer' } };
    });
    expect(drift.changes).toHaveLength(2);
    expect(drift.changes).toEqual(
      expect.arrayContaining([
        { kind: 'addition', where: 'GET /api/stats response 200 header x-stats-age', detail: 'added' },
        {
          kind: 'addition',
          where: 'GET /api/stats response 200 application/json body field description',
          detail: 'added',
        },
      ]),
    );
    expect(drift.bump).toBe('minor');
  });

  it('says so when upstream cannot be read', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'agent-apis-empty-mirror-'));
    await expect(diffService('store', { root, mirror: empty })).rejects.toThrow(SpecSourceError);
    await expect(diffService('store', { root, mirror: empty })).rejects.toThrow(/cannot read the mirrored document/);
  });

  it('says so when upstream changed but the pinned bytes are not cached', async () => {
    const uncached = await scratchSpecsRoot();
    const mirror = await scratchMirror({ directory: (bytes) => Buffer.concat([bytes, Buffer.from('\n')]) });
    const failure = diffService('directory', { root: uncached, mirror });
    await expect(failure).rejects.toThrow(SpecSourceError);
    await expect(failure).rejects.toThrow(/pinned document is not available[\s\S]*specs:sync/);
  });
});

describe('bumpFor', () => {
  const change = (kind: ChangeKind): SpecChange => ({ kind, where: 'GET /x', detail: kind });
  it('takes the largest bump: breaking → major, addition → minor, other → patch, nothing → none', () => {
    expect(bumpFor([change('other'), change('breaking'), change('addition')])).toBe('major');
    expect(bumpFor([change('other'), change('addition')])).toBe('minor');
    expect(bumpFor([change('other')])).toBe('patch');
    expect(bumpFor([])).toBeUndefined();
  });
});

describe('changesets', () => {
  function drift(service: 'store' | 'directory', changes: SpecChange[]): ServiceDrift {
    const bump = bumpFor(changes);
    return {
      service,
      packageName: `@agent-apis/${service}`,
      pinnedSha256: 'a'.repeat(64),
      currentSha256: 'b'.repeat(64),
      currentOrigin: 'test',
      drifted: true,
      basis: 'overlay',
      staleOverlayActions: [],
      changes,
      ...(bump ? { bump } : {}),
    };
  }

  function frontMatter(text: string): { packages: unknown; summary: string } {
    const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]+)$/.exec(text);
    if (!match) throw new Error(`no front matter in:\n${text}`);
    return { packages: parseYaml(match[1] as string), summary: match[2] as string };
  }

  it('writes one file naming the package and its bump in changesets front matter', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-apis-changesets-'));
    const breaking = drift('store', [
      { kind: 'breaking', where: 'GET /taxes/{id}.json', detail: 'prevent operation removal: cannot remove' },
      { kind: 'addition', where: 'GET /gift_cards.json', detail: 'added' },
    ]);
    const file = await writeChangeset(breaking, dir);
    expect(file).toBe(join(dir, `drift-store-${'b'.repeat(12)}.md`));
    const { packages, summary } = frontMatter(await readFile(file as string, 'utf8'));
    expect(packages).toEqual({ '@agent-apis/store': 'major' });
    expect(summary).toContain('1 breaking, 1 addition, 0 other');
    expect(summary).toContain('- breaking: GET /taxes/{id}.json: prevent operation removal');

    const patch = drift('directory', [{ kind: 'other', where: 'GET /api/stats (description)', detail: 'changed' }]);
    expect(frontMatter(changesetText(patch)).packages).toEqual({ '@agent-apis/directory': 'patch' });
  });

  it('writes nothing when no change reaches the clients', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-apis-changesets-'));
    expect(await writeChangeset(drift('store', []), dir)).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  it('runDrift writes the report, and changesets only when asked', async () => {
    const mirror = await scratchMirror({
      directory: edit((document) => {
        document.paths['/api/health'] = {
          get: { operationId: 'getHealth', responses: { '200': { description: 'up' } } },
        };
      }),
    });
    const reportOnly = await mkdtemp(join(tmpdir(), 'agent-apis-changesets-'));
    const first = await runDrift(['directory', 'store'], { root, mirror, changesetDir: reportOnly });
    expect(first.changesetFiles).toEqual([]);
    expect(await readdir(reportOnly)).toEqual([]);
    expect(driftExitCode(first.report)).toBe(0);

    const report = JSON.parse(await readFile(join(root, 'reports', 'drift.json'), 'utf8'));
    expect(report.services.map((entry: ServiceDrift) => [entry.service, entry.drifted, entry.bump])).toEqual([
      ['directory', true, 'minor'],
      ['store', false, undefined],
    ]);
    const markdown = await readFile(join(root, 'reports', 'drift.md'), 'utf8');
    expect(markdown).toContain('| addition | GET /api/health | added |');

    const withChangesets = await mkdtemp(join(tmpdir(), 'agent-apis-changesets-'));
    const second = await runDrift(['directory', 'store'], {
      root,
      mirror,
      changesets: true,
      changesetDir: withChangesets,
    });
    expect(second.changesetFiles).toHaveLength(1);
    const text = await readFile(second.changesetFiles[0] as string, 'utf8');
    expect(frontMatter(text).packages).toEqual({ '@agent-apis/directory': 'minor' });
  });

  it('the exit code is 1 for a breaking change or an unreadable upstream', async () => {
    const mirror = await scratchMirror({
      directory: edit((document) => {
        delete document.paths['/api/stats'];
      }),
    });
    const breaking = await runDrift(['directory'], { root, mirror });
    expect(driftExitCode(breaking.report)).toBe(1);

    const empty = await mkdtemp(join(tmpdir(), 'agent-apis-empty-mirror-'));
    const unreadable = await runDrift(['directory'], { root, mirror: empty });
    expect(unreadable.report.services).toEqual([
      { service: 'directory', error: expect.stringContaining('cannot read the mirrored document') },
    ]);
    expect(driftExitCode(unreadable.report)).toBe(1);
  });
});
