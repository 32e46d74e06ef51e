/**
 * Drift fixtures for the facts the overlays repair (issue 40): what `specs:diff` says when the vendor changes one
 * of them upstream (the store), or when the hand-written trust spec changes its batch cap.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { diffService, type ServiceDrift } from './diff.ts';
import { bumpFor, classifyChanges } from './drift-classify.ts';
import type { OpenApiDocument } from './openapi.ts';
import { buildSpec } from './pipeline.ts';
import { DEFAULT_SPECS_ROOT } from './services.ts';
import { MIRROR, scratchMirror, scratchSpecsRoot } from './test-support.ts';

// biome-ignore lint/suspicious/noExplicitAny: fixtures edit raw upstream JSON
type Upstream = any;

let root: string;
beforeAll(async () => {
  root = await scratchSpecsRoot();
  await buildSpec('store', { root, mirror: MIRROR });
});

async function storeDrift(change: (document: Upstream) => void): Promise<ServiceDrift> {
  const mirror = await scratchMirror({
    store: (bytes) => {
      const document = JSON.parse(bytes.toString('utf8'));
      change(document);
      return JSON.stringify(document);
    },
  });
  return diffService('store', { root, mirror });
}

const summary = (drift: ServiceDrift) => drift.changes.map((c) => `${c.kind} | ${c.where} | ${c.detail}`);

describe('store drift around the repaired facts', () => {
  it('the vendor documenting /orders/after/{id} as a list itself changes nothing in the final spec', async () => {
    const drift = await storeDrift((document) => {
      document.paths['/orders/after/{id}.json'].get.responses['200'].content['application/json'].schema = {
        type: 'array',
        items: { $ref: '#/components/schemas/Order' },
      };
    });
    expect(drift.drifted).toBe(true);
    expect(drift.basis).toBe('overlay');
    expect(drift.changes).toEqual([]);
    expect(drift.bump).toBeUndefined();
  });

  it('the vendor re-describing the one-order answer: the repair keeps the list, only the description changes (patch)', async () => {
    const drift = await storeDrift((document) => {
      const ok = document.paths['/orders/after/{id}.json'].get.responses['200'];
      ok.description = 'The next order.';
    });
    expect(summary(drift)).toEqual([
      'other | GET /orders/after/{id}.json response 200 (description) | changed "OK" → "The next order."',
    ]);
    expect(drift.bump).toBe('patch');
  });

  it('the vendor documenting its own 404 where the overlay added one: documentation only (patch), the repair steps aside', async () => {
    const drift = await storeDrift((document) => {
      document.paths['/orders/{id}/history.json'].get.responses['404'] = {
        description: 'Order Not Found.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/NotFound' } } },
      };
    });
    expect(drift.basis).toBe('overlay');
    expect(summary(drift)).toEqual([
      'other | GET /orders/{id}/history.json response 404 (description) | changed "No record has the id (or app code) in the path." → "Order Not Found."',
    ]);
    expect(drift.bump).toBe('patch');
  });

  it('the vendor dropping a documented 404 on a path id: breaking (major)', async () => {
    const drift = await storeDrift((document) => {
      delete document.paths['/products/{id}.json'].get.responses['404'];
    });
    expect(drift.changes).toEqual([
      {
        kind: 'breaking',
        where: 'GET /products/{id}.json response 404',
        detail: expect.stringMatching(/^prevent response status code removal/),
      },
    ]);
    expect(drift.bump).toBe('major');
  });

  it('the vendor capping page: breaking (major) on every listing that takes page (16), as an added maximum', async () => {
    const drift = await storeDrift((document) => {
      document.components.parameters.PageParam.schema.maximum = 1000;
    });
    const wheres = drift.changes.map((c) => c.where);
    expect(wheres).toHaveLength(16);
    expect(wheres.every((where) => where.endsWith('query parameter page (maximum)'))).toBe(true);
    expect(wheres).toContain('GET /products.json query parameter page (maximum)');
    expect(drift.changes.every((c) => c.kind === 'breaking')).toBe(true);
    expect(drift.changes[0]?.detail).toBe('narrows what the request accepts (maximum): added');
    expect(drift.bump).toBe('major');
  });

  it('the vendor documenting page from 0 is masked by the repair (minimum 1 stays)', async () => {
    const drift = await storeDrift((document) => {
      document.components.parameters.PageParam.schema.minimum = 0;
    });
    expect(drift.changes).toEqual([]);
  });

  it('the vendor moving /orders/after/{id} leaves the repairs stale: compared without them, the removal is breaking', async () => {
    const drift = await storeDrift((document) => {
      document.paths['/orders/since/{id}.json'] = document.paths['/orders/after/{id}.json'];
      delete document.paths['/orders/after/{id}.json'];
    });
    expect(drift.basis).toBe('partial-overlay');
    expect(drift.staleOverlayActions).toEqual([
      expect.stringContaining("$.paths['/orders/after/{id}.json'].get"),
      expect.stringContaining('It showed one Order'),
      expect.stringContaining('describe the answer as an array of Order'),
    ]);
    expect(summary(drift)).toEqual([
      expect.stringMatching(/^breaking \| GET \/orders\/after\/\{id\}\.json \| prevent operation removal/),
      'addition | GET /orders/since/{id}.json | added',
    ]);
    expect(drift.bump).toBe('major');
  });
});

describe("trust's batch cap (hand-written spec)", () => {
  let trust: OpenApiDocument;
  beforeAll(async () => {
    trust = parseYaml(await readFile(join(DEFAULT_SPECS_ROOT, 'trust', 'openapi.yaml'), 'utf8')) as OpenApiDocument;
  });
  const withCap = (cap: number | undefined) => {
    const copy = structuredClone(trust) as Upstream;
    const domains = copy.components.schemas.DomainScoreBatchRequest.properties.domains;
    if (cap === undefined) delete domains.maxItems;
    else domains.maxItems = cap;
    return copy as OpenApiDocument;
  };

  const where = 'POST /v1/domain/score/batch request body application/json body field domains (maxItems)';

  it('a changed or dropped cap is reported on the batch body, with its old and new value', async () => {
    expect(await classifyChanges(trust, withCap(100))).toEqual([
      expect.objectContaining({ where, detail: 'narrows what the request accepts (maxItems): changed 150 → 100' }),
    ]);
    expect(await classifyChanges(trust, withCap(500))).toEqual([
      expect.objectContaining({ where, detail: 'changed 150 → 500' }),
    ]);
    expect(await classifyChanges(trust, withCap(undefined))).toEqual([
      expect.objectContaining({ where, detail: 'removed' }),
    ]);
  });

  it('a lowered cap is breaking (major); a raised or dropped one accepts more (patch)', async () => {
    expect(bumpFor(await classifyChanges(trust, withCap(100)))).toBe('major');
    expect((await classifyChanges(trust, withCap(100)))[0]?.kind).toBe('breaking');
    expect(bumpFor(await classifyChanges(trust, withCap(500)))).toBe('patch');
    expect(bumpFor(await classifyChanges(trust, withCap(undefined)))).toBe('patch');
  });
});
