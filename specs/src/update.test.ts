import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLock } from './lock.ts';
import { buildSpec } from './pipeline.ts';
import { MIRROR, scratchMirror, scratchSpecsRoot } from './test-support.ts';
import { summarizeChanges, updateSpec } from './update.ts';

/** Upstream with one operation removed and one added. */
function mutateStore(bytes: Buffer): string {
  const document = JSON.parse(bytes.toString('utf8'));
  delete document.paths['/taxes/{id}.json'];
  document.paths['/gift_cards.json'] = {
    get: { summary: 'List gift cards', responses: { '200': { description: 'ok' } } },
  };
  return JSON.stringify(document);
}

describe('updateSpec', () => {
  it('says "up to date" and leaves the lock alone when upstream is unchanged', async () => {
    const root = await scratchSpecsRoot();
    const before = await readFile(join(root, 'store', 'lock.json'), 'utf8');
    const result = await updateSpec('store', { root, mirror: MIRROR });
    expect(result.changed).toBe(false);
    expect(await readFile(join(root, 'store', 'lock.json'), 'utf8')).toBe(before);
  });

  it('pins a changed upstream, summarises what changed and flags a stale overlay', async () => {
    const root = await scratchSpecsRoot();
    await buildSpec('store', { root, mirror: MIRROR }); // caches the currently pinned bytes
    const mirror = await scratchMirror({ store: mutateStore });
    const result = await updateSpec('store', { root, mirror, now: new Date('2026-11-21T00:00:00Z') });

    expect(result.changed).toBe(true);
    expect(result.summary?.operationsRemoved).toEqual(['GET /taxes/{id}.json']);
    expect(result.summary?.operationsAdded).toEqual(['GET /gift_cards.json']);
    // The overlay names /taxes/{id}.json, which is gone, and the new operation has no operationId.
    expect(result.overlayProblem).toMatch(/taxes|operationId/);

    const lock = await readLock(join(root, 'store', 'lock.json'));
    expect(lock.sha256).toBe(result.next.sha256);
    expect(lock.sha256).not.toBe(result.previous.sha256);
    expect(lock.fetchedAt).toBe('2026-11-21T00:00:00.000Z');
    expect(lock.operations).toBe(179);
  });
});

describe('summarizeChanges', () => {
  it('lists changed operations and schemas', () => {
    const before = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: {} } } },
      components: { schemas: { A: { type: 'object' }, B: { type: 'string' } } },
    };
    const after = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } },
      components: { schemas: { A: { type: 'object', required: ['x'] }, C: { type: 'string' } } },
    };
    expect(summarizeChanges(before, after)).toEqual({
      operationsAdded: [],
      operationsRemoved: [],
      operationsChanged: ['GET /a'],
      schemasAdded: ['C'],
      schemasRemoved: ['B'],
      schemasChanged: ['A'],
    });
  });
});
