import { describe, expect, it } from 'vitest';
import { applyOverlay, type Overlay, OverlayError, validateOverlay } from './overlay.ts';

const base = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/a.json': { get: { responses: { '200': { description: 'ok' } } }, parameters: [{ name: 'x', in: 'query' }] },
    '/b.json': { get: { tags: ['one'], responses: {} } },
  },
};

function overlay(actions: Overlay['actions']): Overlay {
  return { overlay: '1.0.0', info: { title: 'test', version: '1' }, actions };
}

describe('applyOverlay', () => {
  it('merges an update into every selected object, recursively, without touching the input', () => {
    const result = applyOverlay(
      base,
      overlay([
        { target: '$.paths.*.get', update: { operationId: 'op', responses: { '404': { description: 'no' } } } },
      ]),
    );
    expect(result.paths['/a.json'].get).toEqual({
      operationId: 'op',
      responses: { '200': { description: 'ok' }, '404': { description: 'no' } },
    });
    expect(result.paths['/b.json'].get).toMatchObject({ operationId: 'op', tags: ['one'] });
    expect(base.paths['/a.json'].get).not.toHaveProperty('operationId');
  });

  it('appends an update to a selected array and replaces arrays inside an object update', () => {
    const result = applyOverlay(
      base,
      overlay([
        { target: "$.paths['/a.json'].parameters", update: { name: 'y', in: 'query' } },
        { target: "$.paths['/b.json'].get", update: { tags: ['two'] } },
      ]),
    );
    expect(result.paths['/a.json'].parameters).toEqual([
      { name: 'x', in: 'query' },
      { name: 'y', in: 'query' },
    ]);
    expect(result.paths['/b.json'].get.tags).toEqual(['two']);
  });

  it('removes every selected node, including array elements selected by a filter', () => {
    const result = applyOverlay(
      base,
      overlay([
        { target: "$.paths['/b.json']", remove: true },
        { target: "$.paths['/a.json'].parameters[?@.name=='x']", remove: true },
      ]),
    );
    expect(Object.keys(result.paths)).toEqual(['/a.json']);
    expect(result.paths['/a.json'].parameters).toEqual([]);
  });

  it('refuses an action that selects nothing, naming it', () => {
    expect(() =>
      applyOverlay(base, overlay([{ target: "$.paths['/gone.json']", description: 'fix gone', remove: true }])),
    ).toThrow(/action #1 \(fix gone\) target \$\.paths\['\/gone\.json'\]: selects nothing/);
  });

  it('refuses an invalid JSONPath', () => {
    expect(() => applyOverlay(base, overlay([{ target: '$.paths[', remove: true }]))).toThrow(OverlayError);
  });

  it('validates the overlay document shape', () => {
    expect(() => validateOverlay({ info: {}, actions: [] })).toThrow(/not an OpenAPI Overlay/);
    expect(() => validateOverlay({ overlay: '1.0.0', info: { title: 'a', version: '1' }, actions: [] })).toThrow(
      /non-empty/,
    );
    expect(() =>
      validateOverlay({
        overlay: '1.0.0',
        info: { title: 'a', version: '1' },
        actions: [{ target: '$', update: {}, remove: true }],
      }),
    ).toThrow(/exactly one/);
  });
});
